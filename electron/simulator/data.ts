// Deterministic demo data for the API simulator: brands and outreach opportunities of both types
// (scores.ts and citations.ts make the rest). Everything is derived from (seed, brand, index, version).
import { Rng, hash32 } from './rng';
import { dayNumber } from '../../shared/calendar';
import { DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES } from '../../shared/domain';

export const BRAND_NAMES = ['Northwind Coffee', 'Acme Analytics', 'Lumen Health', 'Fjord Outdoor', 'Quill Legal'];

export const DOMAINS = [
  'techcrunch.com',
  'theverge.com',
  'wired.com',
  'forbes.com',
  'businessinsider.com',
  'zdnet.com',
  'healthline.com',
  'medicalnewstoday.com',
  'outsideonline.com',
  'seriouseats.com',
  'sprudge.com',
  'coffeereview.com',
  'g2.com',
  'capterra.com',
  'producthunt.com',
  'hbr.org',
  'fastcompany.com',
  'inc.com',
  'entrepreneur.com',
  'lifehacker.com',
  'nytimes.com',
  'theguardian.com',
  'bbc.co.uk',
  'reuters.com',
  'axios.com',
  'venturebeat.com',
  'arstechnica.com',
  'engadget.com',
  'cnet.com',
  'pcmag.com',
  'tomsguide.com',
  'verywellhealth.com',
  'webmd.com',
  'runnersworld.com',
  'rei.com',
  'gearpatrol.com',
  'dailycoffeenews.com',
  'baristamagazine.com',
  'towardsdatascience.com',
  'martech.org',
  'searchengineland.com',
  'hubspot.com',
  'smashingmagazine.com',
  'dev.to',
  'medium.com',
  'substack.com',
  'lawfaremedia.org',
  'abajournal.com',
  'law.com',
  'above-the-law.com',
  'statnews.com',
  'fiercehealthcare.com',
  'mobihealthnews.com',
  'backpacker.com',
  'adventure-journal.com',
  'food52.com',
  'eater.com',
  'bonappetit.com',
  'saveur.com',
  'datanami.com',
];

export const TOPICS = [
  'cold brew',
  'specialty coffee',
  'home espresso',
  'sustainability',
  'B2B analytics',
  'dashboards',
  'data privacy',
  'telehealth',
  'patient experience',
  'trail running',
  'ultralight gear',
  'legal tech',
  'contract review',
  'AI search',
  'product reviews',
  'buying guides',
  'small business',
  'remote work',
  'nutrition',
  'sleep',
  'climate',
  'pricing',
  'onboarding',
  'integrations',
  'startups',
];

export const COMPETITORS = [
  'Blue Bottle',
  'Stumptown',
  'Intelligentsia',
  'Tableau',
  'Looker',
  'Mode',
  'Hims',
  'Ro',
  'Teladoc',
  'Patagonia',
  "Arc'teryx",
  'Black Diamond',
  'Clio',
  'Ironclad',
  'LegalZoom',
  'Mixpanel',
  'Amplitude',
];

const FIRST = ['Alex', 'Maya', 'Jordan', 'Priya', 'Sam', 'Lena', 'Tomás', 'Aisha', 'Chen', 'Olivia', 'Noah', 'Zoë', 'Mateo', 'Hana', 'Ravi', 'Ines'];
const LAST = ['Rivera', 'Okafor', 'Nguyen', 'Schmidt', 'Patel', 'Kowalski', 'García', 'Haddad', 'Kim', 'Johansson', 'Moreau', 'Silva', "O'Neil", 'Brennan'];

const TITLE_LHF = [
  'The {n} best {t} tools in {y}',
  'Best {t} for beginners: tested and ranked',
  '{t}: everything you need to know',
  "We tried {n} {t} options so you don't have to",
  'How to choose {t} ({y} guide)',
  'The ultimate guide to {t}',
  '{t} compared: which one is right for you?',
];
const TITLE_PG = [
  'Nobody covers {t} for small teams yet',
  'Gap: expert roundup on {t}',
  'Missing explainer: {t} myths, debunked',
  'Opportunity: data study on {t}',
];
const CONTENT_TYPES = ['listicle', 'review', 'guide', 'news', 'comparison', 'opinion'];
const SITE_TYPES = ['news publication', 'niche blog', 'review site', 'trade magazine', 'community forum'];
const STRATEGIES = ['Get added to list', 'Expert quote', 'Data contribution', 'Product review', 'Guest post'];
const CONFIDENCE = ['high', 'medium', 'low'];
export const LANGS = ['en', 'en', 'en', 'de', 'fr', 'es'];
const COUNTRIES = ['US', 'GB', 'DE', null, 'CA', 'AU'];

/** Reference "today" for generated dates: the real date at start, overridable. */
export interface DataOptions {
  seed: number;
  /** Opportunities for the first brand. */
  opportunities: number;
  /** Opportunities for every other brand. */
  otherBrandOpportunities: number;
  brands: number;
  citationsPerBrand: number;
  /** The most recent report date, YYYY-MM-DD. */
  today: string;
}

export function brandId(seed: number, index: number): string {
  const a = hash32(seed, index, 1);
  const b = hash32(seed, index, 2);
  const c = hash32(seed, index, 3);
  const head = String(1_700_000_000_000 + (a % 99_999_999_999))
    .padStart(13, '0')
    .slice(0, 13);
  const tail = (String(b).padStart(10, '0') + String(c).padStart(10, '0')).slice(0, 18);
  return `${head}x${tail}`;
}

function bubbleId(seed: number, brand: number, i: number): string {
  const head = String(1_650_000_000_000 + (hash32(seed, brand, i, 11) % 99_999_999_999)).slice(0, 13);
  const tail = (String(hash32(seed, brand, i, 12)).padStart(10, '0') + String(hash32(seed, brand, i, 13)).padStart(10, '0')).slice(0, 18);
  return `${head}x${tail}`;
}

/** The cheap attributes of an opportunity: enough to filter and sort without building the record. */
export interface Skeleton {
  type: number; // index into OPPORTUNITY_TYPES
  status: number; // index into STATUSES
  difficulty: number;
  archived: boolean;
  priority: number;
  fit: number;
  lastSeenDay: number;
  domain: number; // index into DOMAINS
}

export function skeleton(seed: number, brand: number, i: number, version: number, todayDay: number): Skeleton {
  const h1 = hash32(seed, brand, i, version, 101);
  const h2 = hash32(seed, brand, i, version, 202);
  const statusRoll = h1 % 100;
  const status = statusRoll < 62 ? 0 : statusRoll < 80 ? 1 : statusRoll < 92 ? 2 : 3;
  return {
    type: (h1 >>> 8) % 3 === 0 ? 1 : 0,
    status,
    difficulty: (h1 >>> 12) % 3,
    archived: status === 3 || h2 % 100 < 6,
    priority: (h2 >>> 4) % 101,
    fit: (h2 >>> 12) % 101,
    lastSeenDay: todayDay - ((h1 >>> 18) % 120),
    domain: hash32(seed, brand, i, 303) % DOMAINS.length,
  };
}

function fill(template: string, rng: Rng, topic: string): string {
  return template
    .replace('{n}', String(rng.int(5, 25)))
    .replace('{t}', topic)
    .replace('{y}', String(rng.pick([2025, 2026])));
}

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

export function isoAt(day: number, rng: Rng): string {
  const ms = day * 86_400_000 + rng.int(0, 86_399_999);
  return new Date(ms).toISOString();
}

function contacts(rng: Rng, domain: string, first: string, last: string): string[] {
  const n = rng.pick([0, 1, 1, 2, 2, 3, 4]);
  const out: string[] = [];
  const f = first
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
  const l = last
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
  const forms = [
    () => `${f}.${l}@${domain}`,
    () => `${f}@${domain}`,
    () => `${f[0] ?? 'x'}${l}@${domain}`,
    () => `editor@${domain} CATCH`,
    () => `tips@${domain} CATCH`,
    () => `press@${domain}`,
    () => `news@${domain} CATCH`,
    () => `${f}.${l}(at)${domain}`, // malformed
    () => `  ${f.toUpperCase()}.${l}@${domain.toUpperCase()}  `, // needs trimming; same person as the first form
    () => 'n/a',
  ];
  for (let k = 0; k < n; k++) {
    const roll = rng.next();
    const form = roll < 0.45 ? forms[rng.int(0, 2)] : roll < 0.8 ? forms[rng.int(3, 6)] : forms[rng.int(7, 9)];
    out.push((form ?? forms[0]!)());
  }
  return out;
}

function pitchBody(rng: Rng, brandName: string, title: string, domain: string, author: string | null, topic: string): string {
  const greet = author ? `Hi ${author.split(' ')[0]},` : rng.chance(0.3) ? 'Hi [Name],' : 'Hi there,';
  const p1 = `I read "${title}" on ${domain} and really enjoyed how you broke down ${topic}. Readers clearly trust your take.`;
  const p2 = `I'm reaching out from ${brandName}. We've been working on ${topic} for a while, and our customers keep telling us the thing they struggle with most is finding honest comparisons. We'd love to be considered for the piece: we can share test units, data from ${rng.int(2, 40)},000 users, or a short expert quote.`;
  const p3 = rng.chance(0.5)
    ? `A few specifics that might help your readers:\n- Setup takes under ${rng.int(2, 15)} minutes\n- Independent reviews average ${(3.8 + rng.next()).toFixed(1)}/5\n- Pricing starts at $${rng.int(9, 99)}`
    : `Happy to work around your schedule, and no pressure at all if it isn't a fit right now.`;
  const sign = `Best,\n${rng.chance(0.2) ? '{{sender_name}}' : 'Sam'}\n${brandName}`;
  return [greet, p1, p2, p3, sign].join('\n\n');
}

export function buildOpportunity(opts: DataOptions, brand: { index: number; name: string }, i: number, version: number): Record<string, unknown> {
  const todayDay = dayNumber(opts.today) ?? 0;
  const sk = skeleton(opts.seed, brand.index, i, version, todayDay);
  const rng = new Rng(hash32(opts.seed, brand.index, i, version, 404));
  const stable = new Rng(hash32(opts.seed, brand.index, i, 505)); // what does not change between versions
  const type = OPPORTUNITY_TYPES[sk.type]!;
  const domain = DOMAINS[sk.domain]!;
  const topic = stable.pick(TOPICS);
  const title = fill(stable.pick(type === 'low-hanging-fruit' ? TITLE_LHF : TITLE_PG), stable, topic) + (version > 0 ? ` (updated)` : '');
  const first = stable.pick(FIRST);
  const last = stable.pick(LAST);
  const author = stable.chance(0.7) ? `${first} ${last}` : null;
  const path = `${slug(title)}-${i}`;
  const competitors = rng.some(COMPETITORS, 1, 4);
  const created = todayDay - 150 + (hash32(opts.seed, brand.index, i, 606) % 30);
  const rec: Record<string, unknown> = {
    _id: bubbleId(opts.seed, brand.index, i),
    unique_key: type === 'low-hanging-fruit' ? `${type}:${domain}/${path}` : `${type}:${slug(topic)}-${i}`,
    opportunity_type: type,
    domain,
    title,
    content_type: stable.pick(CONTENT_TYPES),
    language: stable.pick(LANGS),
    country: stable.pick(COUNTRIES),
    status: STATUSES[sk.status],
    archived: sk.archived,
    difficulty: DIFFICULTIES[sk.difficulty],
    strategy_name: rng.pick(STRATEGIES),
    topics_covered: stable.some(TOPICS, 1, 4),
    site_type: stable.pick(SITE_TYPES),
    audience_profile: `Readers interested in ${topic}, mostly ${rng.pick(['professionals', 'hobbyists', 'buyers comparing options', 'team leads'])}.`,
    content_style: rng.pick(['conversational', 'data-driven', 'authoritative', 'hands-on']),
    competitors,
    competitor_count: competitors.length,
    gap_analysis: `${brand.name} is not mentioned while ${competitors.join(', ')} ${competitors.length > 1 ? 'are' : 'is'}. AI answers for ${topic} lean on this page.`,
    why_competitors_win: `${competitors[0]} has a named product in the article and a review quote; the others are linked from comparison tables.`,
    brand_angle: `Offer ${brand.name}'s ${rng.pick(['original data', 'hands-on test unit', 'expert commentary', 'customer story'])} on ${topic}.`,
    fit_score: sk.fit,
    topics_aligned: rng.some(TOPICS, 0, 3),
    audience_match: rng.pick(["Strong overlap with the brand's buyers.", 'Partial overlap; skews technical.', 'Broad consumer audience.']),
    why_relevant: `This page is cited in AI answers for ${rng.int(2, 30)} prompts about ${topic}.`,
    pitch_subject: rng.chance(0.03) ? '' : `${brand.name} for your ${topic} ${type === 'low-hanging-fruit' ? 'roundup' : 'coverage'}?`,
    pitch_body: pitchBody(rng, brand.name, title, domain, author, topic),
    author_name: author,
    contact_emails: contacts(stable, domain, first, last),
    contact_confidence: rng.pick(CONFIDENCE),
    appearance_count: rng.int(1, 200),
    prompt_count: rng.int(1, 40),
    query_count: rng.int(0, 60),
    priority_score: sk.priority,
    brand_citations_on_prompt: rng.int(0, 5),
    competitor_citations_on_prompt: rng.int(0, 40),
    instructions: [
      `Read the article and note where ${brand.name} fits.`,
      `Personalise the first line of the pitch${author ? ` for ${author}` : ''}.`,
      'Send from a personal address, not a no-reply.',
      'Follow up once after five working days.',
    ],
    what_itll_do: `A mention here should lift ${brand.name}'s visibility on ${topic} prompts within weeks.`,
    last_seen_date: isoAt(sk.lastSeenDay, rng),
    'Created Date': isoAt(created, stable),
    'Modified Date': isoAt(Math.max(created, sk.lastSeenDay - (version > 0 ? 0 : 3)), rng),
  };
  if (type === 'low-hanging-fruit') {
    rec.url = `https://${domain}/${path}`;
    rec.original_prompts = rng.some(
      [`best ${topic} for small teams`, `is ${brand.name} good`, `${topic} recommendations`, `alternatives to ${competitors[0]}`],
      1,
      3,
    );
    rec.search_queries = rng.some(
      [`best ${topic}: ${rng.int(1, 30)}`, `${topic} ${rng.pick([2025, 2026])}: ${rng.int(1, 30)}`, `${topic} review: ${rng.int(1, 30)}`],
      1,
      3,
    );
  } else {
    rec.weak_prompt = rng.chance(0.9) ? `What is the best ${topic}?` : null;
    rec.competitors_winning = rng.some(COMPETITORS, 1, 3);
  }
  return rec;
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
