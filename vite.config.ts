import minifyLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { defineConfig, type Plugin } from 'vite';

/**
 * One build per entry (`vite build --mode <entry>`), so no bundle shares a chunk with another:
 * a page that loads only the chat widget never fetches code of the admin panel. The one file
 * they do share is the markdown renderer, which each loads when an answer first needs it.
 */
const entries = {
  api: { entry: 'src/api/index.ts', fileName: 'api', formats: ['es'] },
  chat: { entry: 'src/chat/index.ts', fileName: 'chatbot-chat', formats: ['es'] },
  admin: { entry: 'src/admin/index.ts', fileName: 'chatbot-admin', formats: ['es'] },
  // marked's lexer with everything else that shows only once an answer exists: loaded by the
  // others when an answer needs them.
  markdown: { entry: 'src/chat/answer-chunk.ts', fileName: 'chatbot-markdown', formats: ['es'] },
  // marked's HTML renderer and DOMPurify: loaded by the markdown chunk for raw HTML in an answer.
  'raw-html': { entry: 'src/chat/raw-html.ts', fileName: 'chatbot-raw-html', formats: ['es'] },
  // The upload client and the chips: loaded by the chat only when `attachments="on"`.
  attachments: {
    entry: 'src/chat/attachments-chunk.ts',
    fileName: 'chatbot-attachments',
    formats: ['es'],
  },
  // The chat's German strings: loaded by the chat when it is shown in German.
  'chat-de': { entry: 'src/ui/strings/chat-de.ts', fileName: 'chatbot-chat-de', formats: ['es'] },
  // A classic script: it reads its own <script> tag through document.currentScript.
  embed: { entry: 'src/embed.ts', fileName: 'chatbot-embed', formats: ['iife'] },
} as const;

/**
 * marked's module ends by building its `marked()` singleton and hanging its API on it, statements
 * a bundler must keep, and they keep the whole `Marked` class with them: 1.7 KB of gzip in every
 * bundle, for an API the elements never call (they import `Lexer` and `Parser`). This drops that
 * tail and exports only those two. marked is pinned; a version whose tail reads differently fails
 * the build here, and an import of anything else from 'marked' fails it at resolution.
 */
const markedWithoutSingleton: Plugin = {
  name: 'marked-without-singleton',
  transform(code, id) {
    if (!id.replaceAll('\\', '/').endsWith('/node_modules/marked/lib/marked.esm.js')) return;
    const tail = code.indexOf('var v=new ne;');
    const exports = code.indexOf('export{', tail);
    const exported = code.slice(exports, code.indexOf('}', exports));
    if (tail < 0 || !exported.includes('w as Lexer') || !exported.includes('P as Parser')) {
      throw new Error("marked's module changed: update markedWithoutSingleton in vite.config.ts");
    }
    return { code: `${code.slice(0, tail)}export{w as Lexer,P as Parser};`, map: null };
  },
};

/** The lazily loaded chunks: the import that loads each, the module making it, and its mode. */
const besideBundle: Record<string, { importer: string; file: string; mode: string }> = {
  './answer-chunk.js': {
    importer: '/src/chat/renderer.ts',
    file: './chatbot-markdown.js',
    mode: 'markdown',
  },
  // The admin's transcripts draw answers with the chat's renderer: the same file, not a copy.
  '../chat/answer-chunk.js': {
    importer: '/src/admin/transcript-markdown.ts',
    file: './chatbot-markdown.js',
    mode: 'markdown',
  },
  './attachments-chunk.js': {
    importer: '/src/chat/answer-extras.ts',
    file: './chatbot-attachments.js',
    mode: 'attachments',
  },
  './raw-html.js': {
    importer: '/src/chat/markdown.ts',
    file: './chatbot-raw-html.js',
    mode: 'raw-html',
  },
  './chat-de.js': {
    importer: '/src/ui/strings/chat.ts',
    file: './chatbot-chat-de.js',
    mode: 'chat-de',
  },
};

/**
 * The elements load the markdown renderer with `import('./answer-chunk.js')`
 * (src/chat/renderer.ts), and that chunk loads attachments with `import('./attachments-chunk.js')`
 * (src/chat/answer-extras.ts) and the sanitizer with `import('./raw-html.js')` (markdown.ts). Every bundle but the chunk's own leaves that import to the
 * chunk's file in `dist/`, beside it, instead of inlining it or splitting a chunk per bundle:
 * one file serves the ES bundles and the classic embed script (which names it by absolute URL,
 * see src/embed.ts: a cross-origin classic script's relative `import()` does not resolve against
 * the script's own URL).
 */
const chunksBesideBundle = (mode: string): Plugin => ({
  name: 'chunks-beside-bundle',
  enforce: 'pre',
  resolveId(source, importer) {
    const chunk = besideBundle[source];
    if (!chunk || mode === chunk.mode) return;
    if (!importer?.replaceAll('\\', '/').endsWith(chunk.importer)) return;
    return { id: chunk.file, external: true };
  },
});

/**
 * The elements for Node (`vite build --mode node`, `dist/node/`), which the package's `node`
 * export condition names: a server render (Next, Nuxt, SvelteKit, Astro) imports them without a
 * DOM. Lit and the other dependencies stay imports, so Node loads Lit's own server build and its
 * DOM shim; the browser bundles inline Lit's browser build, which touches `HTMLElement` at once.
 */
const nodeBuild = {
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/node',
    emptyOutDir: false,
    sourcemap: true,
    rolldownOptions: {
      input: { 'chatbot-chat': 'src/chat/index.ts', 'chatbot-admin': 'src/admin/index.ts' },
      output: { format: 'es' as const, entryFileNames: '[name].js', chunkFileNames: '[name].js' },
    },
  },
};

export default defineConfig(({ mode }) => {
  if (mode === 'node') return nodeBuild;
  const target = entries[mode as keyof typeof entries];
  if (!target) {
    throw new Error(`vite build needs --mode with one of: ${Object.keys(entries).join(', ')}`);
  }
  return {
    plugins: [
      chunksBesideBundle(mode),
      markedWithoutSingleton,
      // The output minifier leaves the markup and styles inside Lit's html`` and css`` literals
      // as written; this squeezes them. A template it cannot parse fails the build rather than
      // shipping unminified or, worse, altered. Not the two admin files whose templates take
      // their tag names from lit/static-html (`<${tag}`), which it cannot parse. The admin's
      // minified screens, and the themes' (light, dark, forced dark), were compared with the
      // unminified ones pixel for pixel, the admin's on every tab at 1280 and 390 px: the same.
      minifyLiterals({
        include: ['src/chat/**/*.ts', 'src/admin/**/*.ts', 'src/ui/**/*.ts'],
        exclude: ['src/admin/text-field.ts', 'src/admin/tab-panels.ts'],
        failOnError: true,
        // A space between two bindings can be the only thing between two words, and an empty
        // attribute (alt="") can carry meaning: keep both.
        options: {
          minifyOptions: {
            conservativeCollapse: true,
            removeEmptyAttributes: false,
            // An SVG shape's `/>` is its end: read as HTML without it, a <circle> swallows the
            // <path> after it (the admin's "not covered" mark lost its stroke).
            keepClosingSlash: true,
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
      rolldownOptions: {
        // The admin's lazy pieces (Insights, Try it's chat, the transcript's renderer) become files
        // of their own; without this the code they share with the entry is split into another
        // file, so chatbot-admin.js is no longer the whole first load. Fixed names, like
        // chatbot-markdown.js, so a rebuild replaces them.
        ...(mode === 'admin' ? { preserveEntrySignatures: 'allow-extension' as const } : {}),
        output: {
          minify: true,
          // `/* @__PURE__ */` marks are for a bundler that shakes the file again; a page loads
          // these bundles as they are, and each registers its elements on load, so nothing in
          // them could be shaken. 32 B of the chat's first load. The API module keeps them.
          ...(mode === 'api' ? {} : { comments: { annotation: false } }),
          ...(mode === 'admin'
            ? {
                // The German strings as chatbot-admin-de.js, beside chatbot-chat-de.js.
                chunkFileNames: ({ name }: { name: string }) =>
                  `chatbot-${name.startsWith('admin-') ? name : `admin-${name}`}.js`,
              }
            : {}),
        },
      },
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
