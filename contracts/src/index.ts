export * from './constants.js';
export * from './storage-keys.js';
export * from './entities.js';
export * from './config.js';
export * from './events.js';
export * from './bus.js';
export * from './island.js';
export * from './guards.js';
