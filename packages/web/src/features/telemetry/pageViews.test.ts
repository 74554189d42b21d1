import { describe, expect, it } from 'vitest';
import { pageShape } from './pageViews.ts';

describe('pageShape', () => {
  it('replaces ids with :id and keeps the words of the page', () => {
    expect(pageShape('/sites/0mwtcmlni02nyziek9s5f/branches/0mwtcmlniz61ida531j3m')).toBe('/sites/:id/branches/:id');
    expect(pageShape('/teams/0mwtcmllmokvqakcj9mbt/settings/')).toBe('/teams/:id/settings');
    expect(pageShape('/user/api-tokens')).toBe('/user/api-tokens');
    expect(pageShape('/')).toBe('/');
  });

  it('counts nothing that is not a console page path', () => {
    expect(pageShape('/Sites/Shop')).toBeNull();
    expect(pageShape('/index.html')).toBeNull();
  });
});
