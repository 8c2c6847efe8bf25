// The simulator's state: its options resolved, the keys it accepts, the brands
// generated from the seed, and the counters the routes and the admin side read.
import { todayUtc, type DataOptions } from './data';
import { type BrandState, makeBrands } from './store';

/** The simulator's demo key: an example key accepted only by this local simulator. */
export const DEMO_KEY = 'sk_live_DEMOdemoDEMOdemoDEMOdemoDEMOdemo'; // example key, not a real credential

export type ErrorForm = 'code' | 'text' | 'mixed';

/** What every simulator takes, the demo included: the data, the keys, the error form, where to listen. */
export interface ServeOptions {
  port?: number;
  host?: string;
  seed?: number;
  opportunities?: number;
  otherBrandOpportunities?: number;
  brands?: number;
  citationsPerBrand?: number;
  today?: string;
  /** Keys accepted; default: the demo key. */
  keys?: string[];
  /** Which error-body form auth and internal errors use ('mixed': both in use). */
  errorForm?: ErrorForm;
  log?: (line: string) => void;
}

export class SimState {
  readonly data: DataOptions;
  readonly keys: Set<string>;
  readonly errorForm: ErrorForm;
  readonly brands: BrandState[];
  private readonly byId: Map<string, BrandState>;
  /** API requests received (the admin routes are not counted). */
  requests = 0;
  /** Changes made to the data; part of every outreach cursor, so a cursor from before a change is refused. */
  mutations = 0;

  constructor(options: ServeOptions) {
    this.data = {
      seed: options.seed ?? 1,
      opportunities: options.opportunities ?? 1200,
      otherBrandOpportunities: options.otherBrandOpportunities ?? 150,
      brands: options.brands ?? 3,
      citationsPerBrand: options.citationsPerBrand ?? 300,
      today: options.today ?? todayUtc(),
    };
    this.keys = new Set(options.keys ?? [DEMO_KEY]);
    this.errorForm = options.errorForm ?? 'mixed';
    this.brands = makeBrands(this.data);
    this.byId = new Map(this.brands.map((b) => [b.id, b]));
  }

  brand(id: string): BrandState | undefined {
    return this.byId.get(id);
  }

  /** The brands as get-brands lists them. */
  brandList(): { id: string; name: string }[] {
    return this.brands.map((b) => ({ id: b.id, name: b.name }));
  }
}
