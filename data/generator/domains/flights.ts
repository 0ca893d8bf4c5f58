/** Air travel: airports, airlines, their aircraft, scheduled flights, passengers and bookings. */
import { category, categoryBy, codeKey, date, integer, key, nameColumn, real, ref, refBy } from '../columns.js';
import { personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITIES, countryOf } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const AIRPORT_CODES = ['LIS', 'OPO', 'MAD', 'BCN', 'CDG', 'LYS', 'BER', 'MUC', 'HAM', 'VIE', 'FCO', 'MXP', 'AMS', 'OSL',
  'ARN', 'CPH', 'DUB', 'LHR', 'MAN', 'YYZ', 'YUL', 'ORD', 'DEN', 'SEA', 'AUS', 'BOS', 'MEX', 'GRU', 'EZE', 'HND'];
const AIRLINES = ['Atlantic Air', 'Iberis Airways', 'Nordwind', 'Alpine Connect', 'Coastal Jet', 'Pacific Crest',
  'Sunline', 'Maple Air', 'Aurora Airlines', 'Southern Cross Air', 'Meridian', 'Lusitania Air',
  'Boreal Wings', 'Harbor Hopper', 'Condor Line', 'Blue Heron Air', 'Transalpine', 'Cascadia Air', 'Pampas Air', 'Rising Sun Express'];

const flightsBetweenCities: QuestionTemplate = {
  id: 'flights/flights-between-cities', difficulty: 'hard', perDatabase: 5,
  drafts: (view, rng) => sampleSome(rng, view.table('flight').rows, 12).map((f) => {
    const from = String(view.table('airport').rows.find((a) => a['code'] === f['origin'])!['city']);
    const to = String(view.table('airport').rows.find((a) => a['code'] === f['destination'])!['city']);
    return {
      question: `How many flights go from ${from} to ${to}?`,
      query: `SELECT COUNT(*) FROM flight AS T1 JOIN airport AS T2 ON T1.origin = T2.code JOIN airport AS T3 ON T1.destination = T3.code WHERE T2.city = ${sqlLiteral(from)} AND T3.city = ${sqlLiteral(to)}`,
      tables: ['flight', 'airport'],
    };
  }),
};

const passengerSpend: QuestionTemplate = {
  id: 'flights/passenger-total-spend', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('passenger').rows, 8).map((p) => ({
    question: `How much has ${String(p['name'])} spent on bookings in total?`,
    query: `SELECT SUM(T1.price) FROM booking AS T1 JOIN passenger AS T2 ON T1.passenger_id = T2.id WHERE T2.name = ${sqlLiteral(p['name']!)}`,
    tables: ['booking', 'passenger'],
  })),
};

const longestRouteForAirline: QuestionTemplate = {
  id: 'flights/longest-flight-of-airline', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('airline').rows, 6).map((a) => ({
    question: `What is the flight number of the longest flight, by distance, operated by ${String(a['name'])}?`,
    query: `SELECT T1.flight_number FROM flight AS T1 JOIN airline AS T2 ON T1.airline_id = T2.id WHERE T2.name = ${sqlLiteral(a['name']!)} ORDER BY T1.distance_km DESC LIMIT 1`,
    tables: ['flight', 'airline'],
    tie: { probe: `SELECT T1.distance_km FROM flight AS T1 JOIN airline AS T2 ON T1.airline_id = T2.id WHERE T2.name = ${sqlLiteral(a['name']!)} ORDER BY T1.distance_km DESC LIMIT 2`, k: 1 },
  })),
};

/**
 * The flights domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(flightsDomain, BUNDLED_SEED);
 * db.rows.get('airport')?.length;
 * ```
 */
export const flightsDomain: DomainSpec = {
  id: 'flights',
  summary: 'Air travel: airports, airlines and their fleets, scheduled flights, passengers and bookings.',
  tables: [
    {
      name: 'airport', singular: 'airport', plural: 'airports', rowCount: AIRPORT_CODES.length,
      columns: [
        codeKey('code', 'airport code', AIRPORT_CODES),
        nameColumn('name', 'name', (_rng, ctx) => `${CITIES[ctx.index]!.city} ${['International', 'Central', 'Airport', 'Field'][ctx.index % 4]}`),
        categoryBy('city', 'city', (ctx) => CITIES[ctx.index]!.city, { phrase: (v) => `in ${v}` }),
        categoryBy('country', 'country', (ctx) => countryOf(String(ctx.row['city'])), { phrase: (v) => `in ${v}` }),
        integer('runways', 'number of runways', 1, 5, { summable: true }),
      ],
    },
    {
      name: 'airline', singular: 'airline', plural: 'airlines', rowCount: AIRLINES.length,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => AIRLINES[ctx.index]!),
        category('country', 'home country', ['Portugal', 'Spain', 'Germany', 'Canada', 'United States', 'Australia']),
        integer('founded_year', 'founding year', 1925, 2015, { summable: false }),
        category('alliance', 'alliance', ['Star', 'Oneworld', 'SkyTeam'], { nullRate: 0.3, phrase: (v) => `in the ${v} alliance` }),
      ],
    },
    {
      name: 'aircraft', singular: 'aircraft', plural: 'aircraft', rowCount: 90,
      columns: [
        key(),
        nameColumn('registration', 'registration', (rng) => `${rng.choice(['CS', 'EC', 'D', 'C', 'N', 'VH'])}-${String.fromCharCode(65 + rng.int(26), 65 + rng.int(26), 65 + rng.int(26))}`),
        ref('airline_id', 'airline', 'airline'),
        category('model', 'model', ['A320', 'A321', 'A350', 'B737', 'B787', 'E190', 'ATR 72'], { weights: [5, 4, 2, 5, 2, 3, 2] }),
        integer('seats', 'seat count', 68, 350, {
          gen: (ctx) => ({ A320: 180, A321: 220, A350: 325, B737: 189, B787: 296, E190: 100, 'ATR 72': 70 } as Record<string, number>)[String(ctx.row['model'])]! - ctx.rng.int(12),
        }),
        date('delivered_on', 'delivery date', '2004-01-01', '2024-06-30'),
      ],
    },
    {
      name: 'flight', singular: 'flight', plural: 'flights', rowCount: 700,
      columns: [
        key(),
        nameColumn('flight_number', 'flight number', (rng) => `${rng.choice(['AT', 'IB', 'NW', 'AC', 'CJ', 'PC', 'SL', 'MA'])}${rng.intBetween(100, 9999)}`),
        ref('airline_id', 'airline', 'airline'),
        refBy('origin', 'airport', 'origin airport', (ctx) => ctx.pick('airport'), 'TEXT'),
        refBy('destination', 'airport', 'destination airport', (ctx) => {
          for (;;) { const d = ctx.pick('airport'); if (d !== ctx.row['origin']) return d; }
        }, 'TEXT'),
        date('departure_date', 'departure date', '2023-01-01', '2024-12-31'),
        integer('distance_km', 'distance in kilometres', 250, 11000, { gen: (ctx) => Math.round(250 + ctx.rng.float() ** 1.8 * 10750) }),
        integer('delay_minutes', 'delay in minutes', 0, 240, {
          nullRate: 0.12, gen: (ctx) => weightedChoice(ctx.rng, [0, ctx.rng.intBetween(5, 45), ctx.rng.intBetween(46, 240)], [6, 3, 1]),
        }),
      ],
    },
    {
      name: 'passenger', singular: 'passenger', plural: 'passengers', rowCount: 500,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('nationality', 'nationality', ['Portuguese', 'Spanish', 'French', 'German', 'British', 'American', 'Canadian', 'Japanese', 'Brazilian', 'Indian']),
        date('birth_date', 'birth date', '1945-01-01', '2010-12-31'),
        category('frequent_flyer_tier', 'frequent flyer tier', ['Blue', 'Silver', 'Gold', 'Platinum'], { nullRate: 0.4, weights: [6, 3, 2, 1] }),
      ],
    },
    {
      name: 'booking', singular: 'booking', plural: 'bookings', rowCount: 1800,
      uniqueTogether: ['flight_id', 'passenger_id'],
      columns: [
        key(),
        ref('flight_id', 'flight', 'flight'),
        ref('passenger_id', 'passenger', 'passenger'),
        category('seat_class', 'seat class', ['economy', 'premium economy', 'business', 'first'], { weights: [20, 5, 3, 1], phrase: (v) => `in ${v} class` }),
        real('price', 'price', 40, 4000, 2, {
          currency: '$',
          gen: (ctx) => ({ economy: 1, 'premium economy': 1.8, business: 4, first: 7 } as Record<string, number>)[String(ctx.row['seat_class'])]! * (40 + ctx.rng.float() * 500),
        }),
        date('booked_on', 'booking date', '2022-06-01', '2024-12-30'),
      ],
    },
  ],
  templates: [flightsBetweenCities, passengerSpend, longestRouteForAirline],
};
