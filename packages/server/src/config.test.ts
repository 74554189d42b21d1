import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('runs with nothing set: port 8080, SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.url.origin).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('derives the console URL from PORT when WHARF_URL is unset', () => {
    expect(loadConfig({ PORT: '9000' }).url.origin).toBe('http://localhost:9000');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a port number'],
    [{ WHARF_URL: 'not a url' }, 'WHARF_URL must be a URL such as http://localhost:8080'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)'],
    [{ WHARF_SECRET: 'short' }, 'WHARF_SECRET must be at least 32 characters'],
    [{ WHARF_USERS: 'alice' }, 'WHARF_USERS entry "alice" must be name:hash'],
  ])('names the variable and the problem: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
