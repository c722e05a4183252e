import minifyLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
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
    plugins: [
      // The output minifier leaves the markup and styles inside Lit's html`` and css`` literals
      // as written; this squeezes them. A template it cannot parse fails the build rather than
      // shipping unminified or, worse, altered. Only src/chat for now: src/ui/tokens.ts has a
      // `dark` block that is a list of declarations, not a stylesheet, which the CSS minifier
      // rejects, and the admin panel's templates have not been checked against it.
      minifyLiterals({
        include: ['src/chat/**/*.ts'],
        failOnError: true,
        // A space between two bindings can be the only thing between two words, and an empty
        // attribute (alt="") can carry meaning: keep both.
        options: {
          minifyOptions: {
            conservativeCollapse: true,
            removeEmptyAttributes: false,
            // Without targets the CSS minifier rewrites for the newest browsers, e.g.
            // (max-width: 480px) as (width <= 480px), which Safari before 16.4 ignores. These
            // match the es2022 build target.
            minifyCSS: {
              minify: true,
              targets: { chrome: 94 << 16, firefox: 93 << 16, safari: 16 << 16 },
            },
          },
        },
      }),
    ],
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
