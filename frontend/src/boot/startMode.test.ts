import { startMode } from './startMode';

const cfg = { authMode: 'local' as const, gaMeasurementId: '', metaPixelId: '' };

function prerenderedRoot(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = '<main><h1>Welcome</h1></main>';
  return root;
}

function storage(items: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(items));
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

describe('startMode', () => {
  it('mounts a page that was not prerendered', () => {
    expect(startMode(document.createElement('div'), cfg, storage(), storage(), null)).toBe('mount');
  });

  it('waits for someone on a prerendered page a fresh visitor opens', () => {
    expect(startMode(prerenderedRoot(), cfg, storage(), storage(), null)).toBe('hydrate');
    expect(startMode(prerenderedRoot(), cfg, storage(), storage(), { key: 'default', idx: 0, usr: null })).toBe('hydrate');
  });

  it('starts the app at once with Firebase accounts: the prerendered sign-in screens are the built-in ones', () => {
    expect(startMode(prerenderedRoot(), { ...cfg, authMode: 'firebase' }, storage(), storage(), null)).toBe('replace');
  });

  it('starts the app at once when a session may be stored', () => {
    expect(startMode(prerenderedRoot(), cfg, storage({ 'layerfix.session': '{}' }), storage(), null)).toBe('replace');
  });

  it("starts the app at once when this tab holds the app's state (a draft, a notice): the page would differ", () => {
    expect(startMode(prerenderedRoot(), cfg, storage(), storage({ 'layerfix.draft.anonymous': '{}' }), null)).toBe('replace');
    expect(startMode(prerenderedRoot(), cfg, storage(), storage({ 'layerfix.sessionEnded': '1' }), null)).toBe('replace');
    expect(startMode(prerenderedRoot(), cfg, storage(), storage({ analysisError: '"Offline"' }), null)).toBe('replace');
  });

  it('starts the app at once when the address carries navigation state (a reload after a notice)', () => {
    expect(startMode(prerenderedRoot(), cfg, storage(), storage(), { key: 'k', idx: 0, usr: { notice: 'Please sign in.' } })).toBe('replace');
  });
});
