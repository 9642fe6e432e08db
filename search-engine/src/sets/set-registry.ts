import { ApiError } from '../api-error.js';
import type { SetKind, SetStore } from './set-store.js';
import { type CurationItem, parseCurationItem } from './curation-set.js';
import { type CompiledSynonym, compileSynonym, parseSynonymItem, type SynonymItem } from './synonym-set.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** SetRegistry methods that only read (routed to one worker). */
export const SET_READ_OPERATIONS = [
  'listSynonymSets',
  'synonymSetView',
  'synonymItems',
  'synonymItem',
  'listCurationSets',
  'curationSetView',
  'curationItems',
  'curationItem',
] as const;
export type SetReadOperation = (typeof SET_READ_OPERATIONS)[number];

/** SetRegistry methods that change sets (applied by the writer, which persists, then by every reader). */
export const SET_WRITE_OPERATIONS = [
  'upsertSynonymSet',
  'deleteSynonymSet',
  'upsertSynonymItem',
  'deleteSynonymItem',
  'upsertCurationSet',
  'deleteCurationSet',
  'upsertCurationItem',
  'deleteCurationItem',
] as const;
export type SetWriteOperation = (typeof SET_WRITE_OPERATIONS)[number];

/** Most items listed by the `items` routes when `limit` is 0 or absent (all). */
function page<T>(items: T[], limit: number, offset: number): T[] {
  return limit === 0 ? items.slice(offset) : items.slice(offset, offset + limit);
}

/**
 * Typesense 30's server-wide synonym sets and curation sets: named lists of
 * items that collections reference by name. Synonym items keep insertion order;
 * curation items are kept sorted by id (Typesense stores them in an ordered map,
 * which is also the order rules are tried in). Every change is persisted.
 */
export class SetRegistry {
  private readonly synonymSets = new Map<string, Map<string, SynonymItem>>();
  private readonly curationSets = new Map<string, Map<string, CurationItem>>();
  /** Compiled synonym items per set, rebuilt lazily after a change. */
  private readonly compiled = new Map<string, CompiledSynonym[]>();

  constructor(private readonly store: SetStore | undefined, log: (msg: string) => void = () => {}) {
    if (!store) return;
    for (const [kind, target] of [['synonym_sets', this.synonymSets], ['curation_sets', this.curationSets]] as const) {
      try {
        for (const [name, items] of Object.entries(store.load(kind))) {
          const map = new Map<string, never>();
          for (const raw of items) {
            const item = kind === 'synonym_sets' ? parseSynonymItem(raw) : parseCurationItem(raw);
            map.set(item.id, item as never);
          }
          target.set(name, map);
        }
      } catch (error) {
        log(`could not read stored ${kind}: ${(error as Error).message}`);
      }
    }
  }

  private persist(kind: SetKind): void {
    if (!this.store) return;
    const source = kind === 'synonym_sets' ? this.synonymSets : this.curationSets;
    const out: Record<string, unknown[]> = {};
    for (const [name, items] of source) out[name] = [...items.values()];
    this.store.save(kind, out);
  }

  hasSynonymSet(name: string): boolean {
    return this.synonymSets.has(name);
  }

  hasCurationSet(name: string): boolean {
    return this.curationSets.has(name);
  }

  // ---- synonym sets -------------------------------------------------------

  private requireSynonymSet(name: string): Map<string, SynonymItem> {
    const set = this.synonymSets.get(name);
    if (!set) throw new ApiError(404, 'Synonym index not found');
    return set;
  }

  synonymSetView(name: string): { items: SynonymItem[]; name: string } {
    return { items: [...this.requireSynonymSet(name).values()], name };
  }

  listSynonymSets(): { items: SynonymItem[]; name: string }[] {
    return [...this.synonymSets.keys()].map((name) => this.synonymSetView(name));
  }

  /** PUT /synonym_sets/:name — replaces the whole set. */
  upsertSynonymSet(name: string, body: unknown): { items: SynonymItem[]; name: string } {
    if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
    if (!Array.isArray(body.items)) throw new ApiError(400, "Missing or invalid 'items' field");
    const map = new Map<string, SynonymItem>();
    for (const raw of body.items) {
      const item = parseSynonymItem(raw);
      map.set(item.id, item);
    }
    this.synonymSets.set(name, map);
    this.compiled.delete(name);
    this.persist('synonym_sets');
    return this.synonymSetView(name);
  }

  deleteSynonymSet(name: string): { name: string } {
    this.requireSynonymSet(name);
    this.synonymSets.delete(name);
    this.compiled.delete(name);
    this.persist('synonym_sets');
    return { name };
  }

  synonymItems(name: string, limit: number, offset: number): SynonymItem[] {
    return page([...this.requireSynonymSet(name).values()], limit, offset);
  }

  synonymItem(name: string, id: string): SynonymItem {
    const item = this.requireSynonymSet(name).get(id);
    if (!item) throw new ApiError(404, 'Not Found');
    return item;
  }

  upsertSynonymItem(name: string, id: string, body: unknown): SynonymItem {
    const set = this.requireSynonymSet(name);
    const item = parseSynonymItem(body, id);
    set.set(id, item);
    this.compiled.delete(name);
    this.persist('synonym_sets');
    return item;
  }

  deleteSynonymItem(name: string, id: string): { id: string } {
    const set = this.requireSynonymSet(name);
    if (!set.delete(id)) throw new ApiError(404, 'Could not find that `id`.');
    this.compiled.delete(name);
    this.persist('synonym_sets');
    return { id };
  }

  /** Compiled items of the named sets (unknown names are skipped), for query expansion. */
  synonymsOf(names: string[]): CompiledSynonym[] {
    const out: CompiledSynonym[] = [];
    for (const name of names) {
      const set = this.synonymSets.get(name);
      if (!set) continue;
      let compiled = this.compiled.get(name);
      if (!compiled) {
        compiled = [...set.values()].map(compileSynonym);
        this.compiled.set(name, compiled);
      }
      out.push(...compiled);
    }
    return out;
  }

  // ---- curation sets ------------------------------------------------------

  private requireCurationSet(name: string): Map<string, CurationItem> {
    const set = this.curationSets.get(name);
    if (!set) throw new ApiError(404, 'Curation index not found');
    return set;
  }

  private sortedCurations(set: Map<string, CurationItem>): CurationItem[] {
    return [...set.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  curationSetView(name: string): { items: CurationItem[]; name: string } {
    return { items: this.sortedCurations(this.requireCurationSet(name)), name };
  }

  listCurationSets(): { items: CurationItem[]; name: string }[] {
    return [...this.curationSets.keys()].map((name) => this.curationSetView(name));
  }

  /** PUT /curation_sets/:name — replaces the whole set. */
  upsertCurationSet(name: string, body: unknown): { items: CurationItem[]; name: string } {
    if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
    if (!Array.isArray(body.items)) throw new ApiError(400, "Missing or invalid 'items' field");
    const map = new Map<string, CurationItem>();
    for (const raw of body.items) {
      const item = parseCurationItem(raw);
      map.set(item.id, item);
    }
    this.curationSets.set(name, map);
    this.persist('curation_sets');
    return this.curationSetView(name);
  }

  deleteCurationSet(name: string): { name: string } {
    this.requireCurationSet(name);
    this.curationSets.delete(name);
    this.persist('curation_sets');
    return { name };
  }

  curationItems(name: string, limit: number, offset: number): CurationItem[] {
    return page(this.sortedCurations(this.requireCurationSet(name)), limit, offset);
  }

  curationItem(name: string, id: string): CurationItem {
    const item = this.requireCurationSet(name).get(id);
    if (!item) throw new ApiError(404, 'Not Found');
    return item;
  }

  upsertCurationItem(name: string, id: string, body: unknown): CurationItem {
    const set = this.requireCurationSet(name);
    const item = parseCurationItem(body, id);
    set.set(id, item);
    this.persist('curation_sets');
    return item;
  }

  deleteCurationItem(name: string, id: string): { id: string } {
    const set = this.requireCurationSet(name);
    if (!set.delete(id)) throw new ApiError(404, 'Could not find that `id`.');
    this.persist('curation_sets');
    return { id };
  }

  /** Curation items of the named sets, set by set, each set in id order (unknown names skipped). */
  curationsOf(names: string[]): CurationItem[] {
    const out: CurationItem[] = [];
    for (const name of names) {
      const set = this.curationSets.get(name);
      if (set) out.push(...this.sortedCurations(set));
    }
    return out;
  }
}
