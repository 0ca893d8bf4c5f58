/** Museums: institutions, artists, artworks, exhibitions and the works shown in them. */
import { category, categoryBy, date, integer, key, nameColumn, real, ref } from '../columns.js';
import { addDays, inventedTitle, personName } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITIES, countryOf } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const MOVEMENTS = ['Impressionism', 'Cubism', 'Surrealism', 'Baroque', 'Renaissance', 'Modernism', 'Expressionism', 'Pop Art', 'Minimalism'];

const artworksShownInCity: QuestionTemplate = {
  id: 'museums/artworks-exhibited-in-city', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('artist').rows, 10).map((a) => ({
    question: `How many exhibitions have shown at least one work by ${String(a['name'])}?`,
    query: `SELECT COUNT(DISTINCT T1.exhibition_id) FROM exhibit_item AS T1 JOIN artwork AS T2 ON T1.artwork_id = T2.id JOIN artist AS T3 ON T2.artist_id = T3.id WHERE T3.name = ${sqlLiteral(a['name']!)}`,
    tables: ['exhibit_item', 'artwork', 'artist'],
  })),
};

const movementAtMuseum: QuestionTemplate = {
  id: 'museums/movement-at-museum', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('museum').rows, 8).map((m) => ({
    question: `How many artworks of each art movement does the ${String(m['name'])} own?`,
    query: `SELECT T3.movement, COUNT(*) FROM artwork AS T1 JOIN museum AS T2 ON T1.museum_id = T2.id JOIN artist AS T3 ON T1.artist_id = T3.id WHERE T2.name = ${sqlLiteral(m['name']!)} GROUP BY T3.movement`,
    tables: ['artwork', 'museum', 'artist'],
  })),
};

const longExhibitions: QuestionTemplate = {
  id: 'museums/long-exhibitions', difficulty: 'medium', perDatabase: 3,
  drafts: (_view, rng) => sampleSome(rng, [60, 90, 120, 150], 3).map((days) => ({
    question: `How many exhibitions ran for more than ${days} days?`,
    query: `SELECT COUNT(*) FROM exhibition WHERE julianday(end_date) - julianday(start_date) > ${days}`,
    tables: ['exhibition'],
  })),
};

/**
 * The museums domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(museumsDomain, BUNDLED_SEED);
 * db.rows.get('museum')?.length;
 * ```
 */
export const museumsDomain: DomainSpec = {
  id: 'museum_collection',
  summary: 'Museums: institutions, artists and their artworks, temporary exhibitions and the works each showed.',
  tables: [
    {
      name: 'museum', singular: 'museum', plural: 'museums', rowCount: 20,
      columns: [
        key(),
        nameColumn('name', 'name', (rng, ctx) => `${rng.choice(['National', 'City', 'Modern', 'Royal', 'Civic'])} ${rng.choice(['Gallery', 'Museum of Art', 'Art Collection', 'Kunsthalle'])} of ${CITIES[ctx.index]!.city}`),
        categoryBy('city', 'city', (ctx) => CITIES[ctx.index]!.city, { phrase: (v) => `in ${v}` }),
        categoryBy('country', 'country', (ctx) => countryOf(String(ctx.row['city'])), { phrase: (v) => `in ${v}` }),
        integer('founded_year', 'founding year', 1753, 2010, { summable: false }),
        integer('annual_visitors', 'annual visitor count', 40000, 9000000, { nullRate: 0.1, gen: (ctx) => Math.round(Math.exp(10.6 + ctx.rng.float() * 5.2) / 100) * 100 }),
      ],
    },
    {
      name: 'artist', singular: 'artist', plural: 'artists', rowCount: 120,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('nationality', 'nationality', ['French', 'Spanish', 'Dutch', 'Italian', 'German', 'American', 'Japanese', 'Mexican', 'Norwegian']),
        integer('birth_year', 'birth year', 1450, 1985, { summable: false }),
        category('movement', 'art movement', MOVEMENTS),
      ],
    },
    {
      name: 'artwork', singular: 'artwork', plural: 'artworks', rowCount: 900,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => inventedTitle(rng), { quoted: true }),
        ref('artist_id', 'artist', 'artist'),
        ref('museum_id', 'museum', 'museum'),
        integer('year_created', 'year of creation', 1470, 2022, {
          summable: false, gen: (ctx) => Math.min(2022, Number(ctx.lookup('artist', ctx.row['artist_id']!, 'birth_year')) + ctx.rng.intBetween(18, 70)),
        }),
        category('medium', 'medium', ['oil on canvas', 'watercolour', 'sculpture', 'photograph', 'print', 'mixed media'], { weights: [6, 3, 3, 2, 2, 2] }),
        real('estimated_value_millions', 'estimated value in millions of euros', 0.01, 120, 2, { nullRate: 0.3, gen: (ctx) => Math.exp(ctx.rng.normal() * 1.6 - 0.5) }),
      ],
    },
    {
      name: 'exhibition', singular: 'exhibition', plural: 'exhibitions', rowCount: 140,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => `${inventedTitle(rng)}: ${rng.choice(['A Retrospective', 'New Acquisitions', 'Light and Form', 'Portraits', 'Landscapes', 'Works on Paper'])}`, { quoted: true }),
        ref('museum_id', 'museum', 'museum'),
        date('start_date', 'start date', '2015-01-01', '2024-09-30'),
        date('end_date', 'end date', '2015-02-01', '2025-06-30', { gen: (ctx) => addDays(String(ctx.row['start_date']), ctx.rng.intBetween(30, 200)) }),
        real('ticket_price', 'ticket price', 0, 28, 2, { currency: '€', summable: false, gen: (ctx) => (ctx.rng.float() < 0.15 ? 0 : 6 + ctx.rng.float() * 22) }),
      ],
    },
    {
      name: 'exhibit_item', singular: 'exhibition entry', plural: 'exhibition entries', rowCount: 1100,
      uniqueTogether: ['exhibition_id', 'artwork_id'],
      columns: [
        key(),
        ref('exhibition_id', 'exhibition', 'exhibition'),
        ref('artwork_id', 'artwork', 'artwork'),
        category('room', 'room', ['Hall A', 'Hall B', 'East Wing', 'West Wing', 'Atrium'], { phrase: (v) => `shown in ${v}` }),
      ],
    },
  ],
  templates: [artworksShownInCity, movementAtMuseum, longExhibitions],
};
