import { defineConfig } from 'vite';

/**
 * One build per entry (`vite build --mode <entry>`), so every bundle is self-contained:
 * a page that loads only the chat widget never fetches a chunk shared with the admin panel.
 */
const entries = {
  api: { entry: 'src/api/index.ts', fileName: 'api', formats: ['es'] },
  chat: { entry: 'src/chat/index.ts', fileName: 'chatbot-chat', formats: ['es'] },
  admin: { entry: 'src/admin/index.ts', fileName: 'chatbot-admin', formats: ['es'] },
  // A classic script: it reads its own <script> tag through document.currentScript.
  embed: { entry: 'src/embed.ts', fileName: 'chatbot-embed', formats: ['iife'] },
} as const;

export default defineConfig(({ mode }) => {
  const target = entries[mode as keyof typeof entries];
  if (!target) {
    throw new Error(`vite build needs --mode with one of: ${Object.keys(entries).join(', ')}`);
  }
  return {
    build: {
      target: 'es2022',
      emptyOutDir: false,
      minify: true,
      // Library ES output keeps whitespace unless the output minifier is asked for explicitly.
      rolldownOptions: { output: { minify: true } },
      sourcemap: true,
      lib: {
        entry: target.entry,
        fileName: () => `${target.fileName}.js`,
        formats: [...target.formats],
        name: 'ChatbotElements',
      },
    },
  };
});
