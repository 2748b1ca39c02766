// The event sinks panel (issues 21 and 32): every sink with its backlog (events waiting, dead
// letters, the last error), and, for operators and owners, a form to add a webhook, MQTT or NATS
// sink, and buttons to pause, resume, replay and delete one. The API validates (the same rules as
// --webhook, --mqtt and --nats); its refusals show beside their field. Everything is text.
import { apiJson } from '../base/api.js';
import { $, el, fill } from '../base/dom.js';
import { errorLine, send } from '../base/form-errors.js';
import * as fmt from '../settings/format.js';
import type { DeadLetter, Sink } from '../replies.js';

const FIELDS = ['kind', 'url', 'events', 'form'];
const sinkPath = (sink: Sink, what = ''): string => '/api/sinks/' + encodeURIComponent(sink.id) + what;

export class SinksPanel {
  private readonly errors: Record<string, HTMLParagraphElement>;
  private readonly kind: HTMLSelectElement;
  private readonly url: HTMLInputElement;
  private readonly events: HTMLInputElement;
  private readonly note: HTMLParagraphElement;
  private list: HTMLUListElement | null = null;

  constructor(
    private readonly report: (error: unknown) => void,
    private readonly canWrite: boolean,
  ) {
    this.errors = Object.fromEntries(FIELDS.map((field) => [field, errorLine('sink', field)]));
    this.kind = el(
      'select',
      { id: 'sink-kind' },
      el('option', { value: 'webhook' }, 'Webhook'),
      el('option', { value: 'mqtt' }, 'MQTT'),
      el('option', { value: 'nats' }, 'NATS'),
    );
    this.url = el('input', { id: 'sink-url', maxLength: 2048, autocomplete: 'off', placeholder: 'https://…' });
    this.events = el('input', { id: 'sink-events', autocomplete: 'off', placeholder: 'all but location' });
    this.note = el('p', { className: 'hint', id: 'sink-created', role: 'status' });
  }

  /** Draws the panel once, then only its list (so a form being filled keeps its focus). */
  async show(): Promise<void> {
    const sinks = (await apiJson('/api/sinks')) as Sink[];
    const section = $('sinks');
    // A viewer with no sink to see has nothing here.
    section.hidden = sinks.length === 0 && !this.canWrite;
    let list = this.list;
    if (!list) {
      list = el('ul', { className: 'sinks' });
      this.list = list;
      fill(
        section,
        el('h2', {}, 'Event sinks'),
        list,
        el('div', { id: 'dead-letters', hidden: true }),
        this.canWrite ? this.form() : null,
      );
    }
    fill(list, ...sinks.map((sink) => this.item(sink)));
  }

  item(sink: Sink): HTMLLIElement {
    const backlog =
      fmt.text(sink.pending) +
      ' waiting · ' +
      fmt.text(sink.dead) +
      ' dead' +
      (sink.paused ? ' · paused' : '') +
      (sink.lastError ? ' · last error: ' + fmt.text(sink.lastError) : '');
    const button = (className: string, label: string, onclick: () => Promise<void>): HTMLButtonElement =>
      el('button', { type: 'button', className, onclick: () => onclick().catch(this.report) }, label);
    return el(
      'li',
      { dataset: { sink: sink.id, paused: String(Boolean(sink.paused)) } },
      el('div', {}, el('strong', {}, sink.kind), ' ', fmt.text(sink.url)),
      el('div', { className: 'meta' }, backlog),
      el(
        'div',
        { className: 'sink-actions' },
        sink.dead > 0 ? button('dead-letters', 'Dead letters', () => this.showDead(sink)) : null,
        this.canWrite
          ? button('pause-sink', sink.paused ? 'Resume' : 'Pause', () => this.pause(sink, !sink.paused))
          : null,
        this.canWrite ? button('delete-sink', 'Delete', () => this.remove(sink)) : null,
      ),
    );
  }

  form(): HTMLFormElement {
    return el(
      'form',
      { id: 'sink-form', onsubmit: (event: SubmitEvent) => this.add(event).catch(this.report) },
      el('h3', {}, 'Add a sink'),
      el('label', {}, 'Kind ', this.kind),
      this.errors.kind,
      el('label', {}, 'URL ', this.url),
      this.errors.url,
      el('label', {}, 'Events (comma-separated, empty: all but location) ', this.events),
      this.errors.events,
      this.errors.form,
      el('button', { type: 'submit', id: 'sink-add' }, 'Add sink'),
      this.note,
    );
  }

  async add(event: Event): Promise<void> {
    event.preventDefault();
    const body: { kind: string; url: string; events?: string[] } = {
      kind: this.kind.value,
      url: this.url.value.trim(),
    };
    const events = this.events.value
      .split(',')
      .map((type) => type.trim())
      .filter(Boolean);
    if (events.length > 0) body.events = events;
    const sink = (await send('/api/sinks', { method: 'POST', body: JSON.stringify(body) }, this.errors)) as Sink | null;
    if (!sink) return;
    this.url.value = '';
    this.events.value = '';
    // A webhook's signing secret is shown this once, as the API answers it (the receiver needs it).
    this.note.textContent = sink.secret ? 'Added. Its signing secret (shown once): ' + sink.secret : 'Added.';
    await this.show();
  }

  async pause(sink: Sink, paused: boolean): Promise<void> {
    await apiJson(sinkPath(sink), { method: 'PATCH', body: JSON.stringify({ paused }) });
    await this.show();
  }

  async remove(sink: Sink): Promise<void> {
    await apiJson(sinkPath(sink), { method: 'DELETE' });
    this.note.textContent = '';
    await this.show();
  }

  async showDead(sink: Sink): Promise<void> {
    const box = $('dead-letters');
    const letters = (await apiJson(sinkPath(sink, '/dead-letters?limit=100'))) as DeadLetter[];
    box.hidden = false;
    const cell = (value: unknown): HTMLTableCellElement => el('td', {}, fmt.text(value));
    fill(
      box,
      el('h3', {}, 'Dead letters of ' + sink.kind + ' ' + String(sink.url)),
      el(
        'table',
        { className: 'dead' },
        el('tr', {}, el('th', {}, 'Event'), el('th', {}, 'Device'), el('th', {}, 'Time'), el('th', {}, 'Error')),
        ...letters.map((letter) =>
          el(
            'tr',
            {},
            cell(letter.event.type),
            cell(letter.event.device),
            cell(fmt.time(Date.parse(letter.event.timestamp ?? ''))),
            cell(letter.lastError),
          ),
        ),
      ),
      this.canWrite
        ? el(
            'button',
            { type: 'button', className: 'replay', onclick: () => this.replay(sink).catch(this.report) },
            'Replay all',
          )
        : null,
    );
  }

  async replay(sink: Sink): Promise<void> {
    const { replayed } = (await apiJson(sinkPath(sink, '/replay'), { method: 'POST', body: '{}' })) as {
      replayed: number;
    };
    await this.show();
    const note = $('dead-letters');
    note.hidden = false;
    fill(note, el('p', { className: 'hint', id: 'replayed' }, replayed + ' events sent again'));
  }
}
