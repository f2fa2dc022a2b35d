import { defineConfig } from '@tessera/server';

// Read by the `tessera-server` command (`pnpm start`) from the folder it runs in. A plugin named by its
// package resolves from this folder, as an import here would; the built-in plugins (widgets, files,
// triggers, skills, blueprints) come first. No model here: OPENAI_API_KEY picks OpenAI, else the demo model.
export default defineConfig({
  plugins: [{ package: '@acme/tessera-plugin-notes', options: { confirmDeletesOver: 3 } }],
});
