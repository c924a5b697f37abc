import { beforeEach, describe, expect, it } from 'vitest';
import { loadSharedIssue, rememberSharedIssue } from './sharedLocal';

beforeEach(() => localStorage.clear());

describe('issues shared from this browser', () => {
  it('keep their fields but neither photos nor attached files', () => {
    rememberSharedIssue('abc', {
      category: 'heating-issues',
      description: 'The heater fails after ten minutes.',
      photos: ['data:image/jpeg;base64,AAAA'],
      attachments: [{ name: 'moonraker.conf', text: '[mqtt]\npassword: hunter2\n' }],
      attachmentInfo: [{ name: 'moonraker.conf', kind: 'moonraker-config', label: 'Moonraker config', bytes: 24 }],
    });
    expect(JSON.stringify(localStorage)).not.toMatch(/hunter2|moonraker/);
    expect(loadSharedIssue('abc')).toEqual({ category: 'heating-issues', description: 'The heater fails after ten minutes.', photos: [] });
  });
});
