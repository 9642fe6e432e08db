import { describe, expect, it } from 'vitest';
import { EnvIntegerError, readEnvInteger } from './index.mjs';

describe('readEnvInteger', () => {
  it('leaves an unset or blank variable unset, so the caller keeps its default', () => {
    expect(readEnvInteger({}, 'PORT')).toBeUndefined();
    expect(readEnvInteger({ PORT: '' }, 'PORT')).toBeUndefined();
    expect(readEnvInteger({ PORT: '  ' }, 'PORT')).toBeUndefined();
  });

  it('reads a whole number within the range, white space around it ignored', () => {
    expect(readEnvInteger({ PORT: ' 4300 ' }, 'PORT', { min: 0, max: 65535 })).toBe(4300);
    expect(readEnvInteger({ PORT: '0' }, 'PORT', { min: 0, max: 65535 })).toBe(0);
    expect(readEnvInteger({ PORT: '65535' }, 'PORT', { min: 0, max: 65535 })).toBe(65535);
    expect(readEnvInteger({ WORKERS: '3' }, 'WORKERS')).toBe(3);
  });

  it.each([
    ['0', 'WORKERS must be a positive integer, got "0"'],
    ['-2', 'WORKERS must be a positive integer, got "-2"'],
    ['1.5', 'WORKERS must be a positive integer, got "1.5"'],
    ['1e3', 'WORKERS must be a positive integer, got "1e3"'],
    ['0x10', 'WORKERS must be a positive integer, got "0x10"'],
    ['12px', 'WORKERS must be a positive integer, got "12px"'],
    ['99999999999999999999', 'WORKERS must be a positive integer, got "99999999999999999999"'],
  ])('refuses %s, naming the variable and the value', (raw, message) => {
    expect(() => readEnvInteger({ WORKERS: raw }, 'WORKERS')).toThrow(new EnvIntegerError('WORKERS', message));
  });

  it('names the range and the unit when they are not the defaults', () => {
    expect(() => readEnvInteger({ PORT: '70000' }, 'PORT', { min: 0, max: 65535 })).toThrow('PORT must be an integer from 0 to 65535, got "70000"');
    expect(() => readEnvInteger({ BUDGET_MS: 'soon' }, 'BUDGET_MS', { unit: 'milliseconds' })).toThrow(
      'BUDGET_MS must be a positive integer of milliseconds, got "soon"',
    );
    const thrown = (() => {
      try {
        readEnvInteger({ PORT: 'x' }, 'PORT');
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(EnvIntegerError);
    expect((thrown as EnvIntegerError).variable).toBe('PORT');
  });
});
