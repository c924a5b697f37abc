// A prerendered page works as far as HTML goes before any of the app's code has run: links navigate
// and fields take text. The app loads on the maker's first sign of presence and then hydrates the
// page in place: the elements stay the same, so focus, the caret and an open on-screen keyboard stay
// too. Until the app has taken over:
//  - the fields the prerender made read-only take text again, and what is typed is handed to the
//    app's state once it runs;
//  - a press on a button (disabled in the HTML) is held, and pressed again once the app runs;
//  - a focused empty field whose label sits inside the box shows the label as its placeholder (in
//    place of its own until the app runs), so typed text is not drawn over the label;
//  - no form is sent natively (a password would end up in the URL), then or later: the app sends
//    every form itself.
// Nothing here imports React: this runs from the small entry, before the app has loaded.

/** Marks what the prerender made inert (read-only fields, disabled buttons, forms that send nothing). */
export const INERT_ATTR = 'data-lf-inert';

/** The events that show someone is on the page: the app starts loading on the first one. */
export const PRESENCE_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'input', 'wheel', 'scroll'];

// What a press acts on (a link or a text field is left to the browser).
const CONTROLS = [
  'button',
  'input',
  'select',
  'label',
  'summary',
  ...['button', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option', 'link', 'combobox'].map((r) => `[role="${r}"]`),
].join(', ');

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface Takeover {
  /** Call once the app has hydrated the page: hands over what was typed and pressed meanwhile. */
  finish(): void;
}

function isField(el: EventTarget | null): el is Field {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
}

// Fields whose value is their text (a click on them only places the caret).
const TEXT_INPUT = /^(text|email|password|search|tel|url|number|date|datetime-local|month|time|week)$/;

function takesText(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_INPUT.test(el.type));
}

/**
 * Makes the prerendered page inside `root` usable before the app runs, and calls `start` on the
 * first sign of someone on the page (again on the next one if loading the app failed).
 */
export function armPrerendered(root: HTMLElement, start: () => Promise<unknown>): Takeover {
  const doc = root.ownerDocument;
  let started = false;
  let finished = false;
  // What each field held after its last input: the app's first renders may put its own (empty)
  // state back into a field before the hand-over.
  const typed = new Map<Field, Typed>();
  const presses: HTMLElement[] = [];
  // Each field showing its label as placeholder, with the label and the field's own placeholder.
  const labelled = new Map<HTMLInputElement | HTMLTextAreaElement, { label: HTMLLabelElement; placeholder: string | null }>();

  for (const el of root.querySelectorAll(`input[${INERT_ATTR}], textarea[${INERT_ATTR}]`)) el.removeAttribute('readonly');
  for (const el of root.querySelectorAll(`button[${INERT_ATTR}]`)) el.removeAttribute('disabled');

  const listen = () => {
    for (const type of PRESENCE_EVENTS) doc.addEventListener(type, begin, { capture: true, passive: true });
  };
  function begin() {
    if (started) return;
    started = true;
    for (const type of PRESENCE_EVENTS) doc.removeEventListener(type, begin, true);
    start().catch((err: unknown) => {
      // Offline or a failed download: the page stays as it is, and the next touch tries again.
      console.error('Loading the app failed', err);
      started = false;
      listen();
    });
  }

  // The label drawn inside an empty outlined field, hidden while the field has focus or text.
  const showLabelAsPlaceholder = (field: HTMLInputElement | HTMLTextAreaElement) => {
    const label = field.labels?.[0];
    if (!label || labelled.has(field) || label.getAttribute('data-shrink') !== 'false') return;
    labelled.set(field, { label, placeholder: field.getAttribute('placeholder') });
    label.style.visibility = 'hidden';
    field.placeholder = (label.textContent ?? '').replace(/\s*\*\s*$/, '').trim();
  };
  const restoreLabel = (field: HTMLInputElement | HTMLTextAreaElement) => {
    const shown = labelled.get(field);
    if (!shown) return;
    labelled.delete(field);
    const { label, placeholder } = shown;
    label.style.removeProperty('visibility');
    if (!label.getAttribute('style')) label.removeAttribute('style');
    if (placeholder === null) field.removeAttribute('placeholder');
    else field.setAttribute('placeholder', placeholder);
  };

  const onFocusIn = (e: Event) => {
    if (e.target instanceof Element && root.contains(e.target) && takesText(e.target)) showLabelAsPlaceholder(e.target);
  };
  const onFocusOut = (e: Event) => {
    if (e.target instanceof Element && takesText(e.target) && e.target.value === '') restoreLabel(e.target);
  };
  const onInput = (e: Event) => {
    if (isField(e.target) && root.contains(e.target)) typed.set(e.target, snapshot(e.target));
  };
  // A press on a control waits for the app; the app's own listeners (attached while it hydrates)
  // must not see it twice. Links navigate and text fields take the caret as they are.
  const onClick = (e: MouseEvent) => {
    const target = e.target;
    if (!(target instanceof Element) || !root.contains(target)) return;
    const control = target.closest(`a[href], ${CONTROLS}`);
    if (!(control instanceof HTMLElement) || control.matches('a[href]') || takesText(control) || control instanceof HTMLSelectElement) return;
    if (control instanceof HTMLLabelElement && control.control && takesText(control.control)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (presses[presses.length - 1] !== control) presses.push(control);
  };
  const onSubmit = (e: Event) => {
    if (e.target instanceof Element && root.contains(e.target)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  };

  // Until the app has taken over, these see every event first (capture on the document).
  const handlers: [string, EventListener][] = [
    ['focusin', onFocusIn],
    ['focusout', onFocusOut],
    ['input', onInput],
    ['change', onInput],
    ['click', onClick as EventListener],
    ['submit', onSubmit],
  ];
  listen();
  for (const [type, handler] of handlers) doc.addEventListener(type, handler, true);

  return {
    finish() {
      if (finished) return;
      finished = true;
      for (const [type, handler] of handlers) doc.removeEventListener(type, handler, true);
      for (const field of [...labelled.keys()]) restoreLabel(field);
      for (const el of root.querySelectorAll(`[${INERT_ATTR}]`)) el.removeAttribute(INERT_ATTR);
      handOver(typed.values());
      const focused = doc.activeElement;
      if (focused instanceof HTMLElement && focused !== doc.body && root.contains(focused)) {
        // The app saw no focus event for the element that has focus (a field shows it focused).
        focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      }
      for (const el of presses) if (el.isConnected) el.click();
    },
  };
}

/** What a field held before the app ran: its text, caret and scroll position. */
export interface Typed {
  field: Field;
  value: string;
  selection: [number, number, HTMLInputElement['selectionDirection']] | null;
  scrollTop: number;
}

function snapshot(field: Field): Typed {
  let selection: Typed['selection'] = null;
  if (!(field instanceof HTMLSelectElement)) {
    try {
      const { selectionStart: start, selectionEnd: end, selectionDirection: dir } = field;
      if (start !== null && end !== null) selection = [start, end, dir];
    } catch {
      // a type without a selection (email and number in some browsers)
    }
  }
  return { field, value: field.value, selection, scrollTop: field.scrollTop };
}

/**
 * Tells the app's state what each field held (a field that still holds it keeps its caret as it is
 * now). The app's render after one field's news puts its own state back into the others, so every
 * field is read before any is handed over. React notices
 * a change only when the value differs from the one it last saw (its value record, which learns
 * of values set on the element itself), so a field is first set to something else through the
 * element and then to what was typed past that record, and an input event follows. Caret and
 * scroll position are kept.
 */
export function handOver(typed: Iterable<Typed>): void {
  const now = [...typed]
    .filter((t) => t.field.isConnected)
    .map((t) => (t.field.value === t.value ? snapshot(t.field) : t));
  for (const t of now) handOverOne(t);
}

function handOverOne({ field, value, selection, scrollTop }: Typed): void {
  if (field instanceof HTMLSelectElement) {
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio' || field.type === 'file')) return;
  const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setValue = Object.getOwnPropertyDescriptor(proto, 'value')!.set!;
  field.value = value === '' ? ' ' : '';
  setValue.call(field, value);
  if (selection && field.ownerDocument.activeElement === field) {
    try {
      field.setSelectionRange(selection[0], selection[1], selection[2] ?? undefined);
    } catch {
      // no selection on this type
    }
  }
  field.scrollTop = scrollTop;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
