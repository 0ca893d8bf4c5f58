/** Concerts: venues, artists, the concerts they play, and ticket sales. */
import { category, categoryBy, date, integer, key, nameColumn, real, ref, text } from '../columns.js';
import { addDays, personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { joinOn3 } from './domain-sql.js';
import { CITY_NAMES, countryOf, TITLE_ADJECTIVES, TITLE_NOUNS } from '../words.js';
import { sampleSome, say, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const GENRES = ['Rock', 'Jazz', 'Pop', 'Folk', 'Electronic', 'Classical', 'Hip hop', 'Blues'];

const revenueForArtist: QuestionTemplate = {
  id: 'concerts/revenue-for-artist', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('artist').rows, 6).map((a) => ({
    question: `How much money did ticket sales bring in for concerts by ${String(a['name'])}? Multiply each sale's quantity by the concert's ticket price.`,
    query: `SELECT SUM(T1.quantity * T2.ticket_price) FROM ${joinOn3('ticket_sale', 'concert_id', 'concert', 'artist_id', 'artist')} WHERE T3.name = ${sqlLiteral(a['name']!)}`,
    tables: ['ticket_sale', 'concert', 'artist'],
  })),
};

const genreConcertsInCity: QuestionTemplate = {
  id: 'concerts/genre-concerts-in-city', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, GENRES, 6).map((g) => {
    const city = String(rng.choice(view.table('venue').rows)['city']);
    return {
      question: `How many ${g} concerts have been held at venues in ${city}?`,
      query: `SELECT COUNT(*) FROM concert AS T1 JOIN artist AS T2 ON T1.artist_id = T2.id JOIN venue AS T3 ON T1.venue_id = T3.id WHERE T2.genre = ${sqlLiteral(g)} AND T3.city = ${sqlLiteral(city)}`,
      tables: ['concert', 'artist', 'venue'],
    };
  }),
};

const soldOutChannel: QuestionTemplate = {
  id: 'concerts/tickets-by-channel-for-venue', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('venue').rows, 4).map((v) => ({
    question: `For concerts at ${say(view.table('venue').nameColumn!, v['name']!)}, how many tickets were sold through each sales channel?`,
    query: `SELECT T1.channel, SUM(T1.quantity) FROM ticket_sale AS T1 JOIN concert AS T2 ON T1.concert_id = T2.id WHERE T2.venue_id = ${v['id']} GROUP BY T1.channel`,
    tables: ['ticket_sale', 'concert'],
  })),
};

/**
 * The concerts domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(concertsDomain, BUNDLED_SEED);
 * db.rows.get('venue')?.length;
 * ```
 */
export const concertsDomain: DomainSpec = {
  id: 'concerts',
  summary: 'Live music: venues, touring artists, concerts and the ticket sales for them.',
  tables: [
    {
      name: 'venue', singular: 'venue', plural: 'venues', rowCount: 24,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => `${rng.choice(TITLE_ADJECTIVES)} ${rng.choice(TITLE_NOUNS)} ${rng.choice(['Hall', 'Arena', 'Theatre', 'Club', 'Amphitheatre'])}`),
        category('city', 'city', CITY_NAMES.slice(0, 14), { phrase: (v) => `in ${v}` }),
        categoryBy('country', 'country', (ctx) => countryOf(String(ctx.row['city']))),
        integer('capacity', 'capacity', 300, 22000, { gen: (ctx) => Math.round(Math.exp(5.8 + ctx.rng.float() * 4.2) / 10) * 10 }),
        integer('opened_year', 'opening year', 1890, 2021, { nullRate: 0.1, summable: false }),
      ],
    },
    {
      name: 'artist', singular: 'artist', plural: 'artists', rowCount: 70,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => (rng.float() < 0.5 ? personName(rng) : `The ${rng.choice(TITLE_ADJECTIVES)} ${rng.choice(TITLE_NOUNS)}s`)),
        category('genre', 'genre', GENRES, { weights: [5, 3, 5, 2, 3, 2, 3, 1] }),
        category('home_country', 'home country', ['Portugal', 'Spain', 'France', 'Germany', 'United Kingdom', 'United States', 'Canada', 'Japan', 'Brazil', 'Nigeria']),
        integer('debut_year', 'debut year', 1968, 2022, { summable: false }),
        integer('monthly_listeners', 'number of monthly listeners', 2000, 9000000, {
          nullRate: 0.08, gen: (ctx) => Math.round(Math.exp(7.5 + ctx.rng.float() * 8.5)),
        }),
      ],
    },
    {
      name: 'concert', singular: 'concert', plural: 'concerts', rowCount: 420,
      columns: [
        key(),
        ref('artist_id', 'artist', 'artist'),
        ref('venue_id', 'venue', 'venue'),
        date('concert_date', 'concert date', '2019-01-01', '2024-12-31'),
        real('ticket_price', 'ticket price', 15, 180, 2, { currency: '$', summable: false, gen: (ctx) => 15 + ctx.rng.float() ** 2 * 165 }),
        category('status', 'status', ['completed', 'cancelled', 'postponed'], { weights: [14, 2, 1] }),
      ],
    },
    {
      name: 'ticket_sale', singular: 'ticket sale', plural: 'ticket sales', rowCount: 1600,
      columns: [
        key(),
        ref('concert_id', 'concert', 'concert'),
        text('buyer_email', 'buyer email', (ctx) => `buyer${ctx.index + 1}@example.com`),
        integer('quantity', 'number of tickets', 1, 8, { gen: (ctx) => weightedChoice(ctx.rng, [1, 2, 3, 4, 5, 6, 8], [8, 12, 4, 5, 1, 1, 1]) }),
        date('sale_date', 'sale date', '2018-10-01', '2024-12-31', {
          gen: (ctx) => addDays(String(ctx.lookup('concert', ctx.row['concert_id']!, 'concert_date')), -ctx.rng.intBetween(1, 150)),
        }),
        category('channel', 'sales channel', ['online', 'box office', 'reseller', 'phone'], { weights: [10, 4, 2, 1] }),
      ],
    },
  ],
  templates: [revenueForArtist, genreConcertsInCity, soldOutChannel],
};
