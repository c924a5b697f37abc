import { describe, expect, it } from 'vitest';
import { defaultConfig, normalizeBasePath, parseConfig } from './config';

describe('parseConfig', () => {
  it('uses the defaults without an injected config or with bad JSON', () => {
    expect(parseConfig(null)).toEqual(defaultConfig);
    expect(parseConfig('{not json')).toEqual(defaultConfig);
  });

  it('reads the injected values and keeps defaults for mistyped ones', () => {
    const c = parseConfig(
      JSON.stringify({ basePath: '/layerfix/', authMode: 'firebase', gaMeasurementId: 'G-1', anonMonthlyLimit: 'x', operatorName: 7 }),
    );
    expect(c.basePath).toBe('/layerfix');
    expect(c.authMode).toBe('firebase');
    expect(c.gaMeasurementId).toBe('G-1');
    expect(c.anonMonthlyLimit).toBe(3);
    expect(c.operatorName).toBe('');
  });

  it('normalizes base paths', () => {
    expect(normalizeBasePath('/')).toBe('');
    expect(normalizeBasePath('sub')).toBe('/sub');
    expect(normalizeBasePath('/a/b//')).toBe('/a/b');
  });
});
