import { describe, expect, it } from 'vitest';
import { photoFeature } from './Features';

describe('Features page photo copy', () => {
  it('promises image analysis only on a server that analyses photos', () => {
    expect(photoFeature(true).text).toMatch(/Image analysis spots/);
    expect(photoFeature(false).title).not.toMatch(/Detection/);
    expect(photoFeature(false).text).not.toMatch(/analysis spots|analy[sz]es (the )?photos/i);
  });
});
