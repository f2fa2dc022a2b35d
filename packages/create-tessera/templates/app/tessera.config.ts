import { defineConfig } from '@tessera/server';

// Read by `tessera-server` (`npm start`) from this folder, with the environment and .env on top. The
// built-in plugins (widgets, files, triggers, skills, blueprints) are served unless `defaultPlugins: false`.
// No `model` here: OPENAI_API_KEY (or OPENAI_BASE_URL) picks OpenAI, else the offline demo model answers.
// Every setting: node_modules/@tessera/server/README.md ("Configuration").
export default defineConfig({
  // Your plugins: plugin objects (import them above), package names, or { package, options }.
  plugins: [],
});
