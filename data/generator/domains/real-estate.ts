/** Real estate: agencies, agents, properties, viewings and sales. */
import { category, date, integer, key, nameColumn, real, ref } from '../columns.js';
import { addDays, personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { STREETS, TITLE_NOUNS } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const TOWNS = ['Riverside', 'Old Town', 'Harbourfront', 'Hillcrest', 'Greenfield', 'Northgate', 'Lakeside', 'Westbury'];
const TYPE_SIZE: Record<string, number> = { studio: 32, apartment: 70, townhouse: 120, house: 160, loft: 95 };

const pricePerSqm: QuestionTemplate = {
  id: 'real-estate/price-per-square-metre', difficulty: 'medium', perDatabase: 4,
  drafts: (_view, rng) => sampleSome(rng, TOWNS, 6).map((t) => ({
    question: `What is the average asking price per square metre of properties in ${t}?`,
    query: `SELECT AVG(listing_price / area_sqm) FROM property WHERE neighbourhood = ${sqlLiteral(t)}`,
    tables: ['property'],
  })),
};

const agentSalesTotal: QuestionTemplate = {
  id: 'real-estate/agent-sales-total', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('agent').rows, 10).map((a) => ({
    question: `What is the total sale price of all properties sold that were listed by ${String(a['name'])}?`,
    query: `SELECT SUM(T1.sale_price) FROM sale AS T1 JOIN property AS T2 ON T1.property_id = T2.id JOIN agent AS T3 ON T2.agent_id = T3.id WHERE T3.name = ${sqlLiteral(a['name']!)}`,
    tables: ['sale', 'property', 'agent'],
  })),
};

const viewedNeverSold: QuestionTemplate = {
  id: 'real-estate/viewed-not-sold', difficulty: 'extra', perDatabase: 3,
  drafts: (_view, rng) => sampleSome(rng, TOWNS, 6).map((t) => ({
    question: `How many properties in ${t} have had at least five viewings but have not been sold?`,
    query: `SELECT COUNT(*) FROM property AS T1 WHERE T1.neighbourhood = ${sqlLiteral(t)} AND (SELECT COUNT(*) FROM viewing AS T2 WHERE T2.property_id = T1.id) >= 5 AND T1.id NOT IN (SELECT property_id FROM sale)`,
    tables: ['property', 'viewing', 'sale'],
  })),
};

/**
 * The real estate domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(realEstateDomain, BUNDLED_SEED);
 * db.rows.get('agency')?.length;
 * ```
 */
export const realEstateDomain: DomainSpec = {
  id: 'real_estate',
  summary: 'A property market: agencies and their agents, listed properties, viewings and completed sales.',
  tables: [
    {
      name: 'agency', singular: 'agency', plural: 'agencies', rowCount: 20,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => `${rng.choice(['Keystone', 'Bluedoor', 'Cornerstone', 'Hearth', 'Lighthouse', 'Oakridge', 'Parkview', 'Summit'])} ${rng.choice(['Homes', 'Realty', 'Property Group', 'Estates', 'Lettings'])}`),
        category('office_area', 'office neighbourhood', TOWNS, { phrase: (v) => `based in ${v}` }),
        integer('founded_year', 'founding year', 1968, 2020, { summable: false }),
      ],
    },
    {
      name: 'agent', singular: 'agent', plural: 'agents', rowCount: 70,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        ref('agency_id', 'agency', 'agency'),
        date('licensed_on', 'licence date', '2001-01-01', '2023-12-31'),
        real('commission_rate', 'commission rate in percent', 1, 3.5, 2, { summable: false }),
      ],
    },
    {
      name: 'property', singular: 'property', plural: 'properties', rowCount: 700,
      columns: [
        key(),
        nameColumn('address', 'address', (rng) => `${rng.intBetween(1, 240)} ${rng.choice([...STREETS, ...TITLE_NOUNS.slice(0, 10).map((n) => `${n} Close`)])}`),
        category('neighbourhood', 'neighbourhood', TOWNS, { phrase: (v) => `in ${v}` }),
        category('property_type', 'property type', Object.keys(TYPE_SIZE), { weights: [2, 8, 3, 4, 1] }),
        integer('bedrooms', 'number of bedrooms', 0, 6, {
          gen: (ctx) => (ctx.row['property_type'] === 'studio' ? 0 : Math.max(1, Math.round(TYPE_SIZE[String(ctx.row['property_type'])]! / 40 + ctx.rng.normal() * 0.8))),
        }),
        integer('area_sqm', 'floor area in square metres', 20, 400, { gen: (ctx) => Math.max(20, Math.round(TYPE_SIZE[String(ctx.row['property_type'])]! * (0.7 + ctx.rng.float() * 0.7))) }),
        integer('year_built', 'construction year', 1880, 2024, { nullRate: 0.1, summable: false }),
        real('listing_price', 'asking price', 60000, 3e6, -3, {
          currency: '$', summable: false, gen: (ctx) => Number(ctx.row['area_sqm']) * (2400 + ctx.rng.float() * 5200),
        }),
        ref('agent_id', 'agent', 'listing agent'),
      ],
    },
    {
      name: 'viewing', singular: 'viewing', plural: 'viewings', rowCount: 1900,
      columns: [
        key(),
        ref('property_id', 'property', 'property'),
        date('viewing_date', 'viewing date', '2022-01-01', '2024-12-31'),
        category('feedback', 'feedback', ['very interested', 'interested', 'neutral', 'not interested'], { nullRate: 0.15, weights: [2, 4, 3, 3] }),
        integer('visitors', 'number of visitors', 1, 5, { gen: (ctx) => weightedChoice(ctx.rng, [1, 2, 3, 4, 5], [6, 8, 2, 1, 1]) }),
      ],
    },
    {
      name: 'sale', singular: 'sale', plural: 'sales', rowCount: 260,
      columns: [
        key(),
        ref('property_id', 'property', 'property'),
        date('sale_date', 'sale date', '2022-02-01', '2024-12-31'),
        real('sale_price', 'sale price', 50000, 3.2e6, -3, {
          currency: '$', gen: (ctx) => Number(ctx.lookup('property', ctx.row['property_id']!, 'listing_price')) * (0.9 + ctx.rng.float() * 0.15),
        }),
        category('financing', 'financing', ['mortgage', 'cash', 'part exchange'], { weights: [7, 3, 1], phrase: (v) => `paid by ${v}` }),
        date('completion_date', 'completion date', '2022-02-01', '2025-06-30', { nullRate: 0.1, gen: (ctx) => addDays(String(ctx.row['sale_date']), ctx.rng.intBetween(20, 90)) }),
      ],
    },
  ],
  templates: [pricePerSqm, agentSalesTotal, viewedNeverSold],
};
