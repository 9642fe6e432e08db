// ESLint for the whole repository: the config and its parser live in tooling/lint (see there why).
export { default } from './tooling/lint/eslint.config.mjs';
