import { defineConfig } from '@tessera/server';
import { __PLUGIN_EXPORT__ } from '__PLUGIN_PACKAGE__';

// Read by `tessera-server` (`npm start`) from this folder, with the environment and .env on top. The
// built-in plugins (widgets, files, triggers, skills, blueprints) are served first, then yours.
// No `model` here: OPENAI_API_KEY (or OPENAI_BASE_URL) picks OpenAI, else the offline demo model answers.
// Every setting: node_modules/@tessera/server/README.md ("Configuration").
export default defineConfig({
  // Your plugins: plugin objects, package names ('__PLUGIN_PACKAGE__' would do too), or { package, options }.
  plugins: [__PLUGIN_EXPORT__],
});
