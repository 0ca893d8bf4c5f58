/** Cinema: studios, directors, movies, actors and casting. */
import { category, date, integer, key, nameColumn, real, ref } from '../columns.js';
import { inventedTitle, personName } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const STUDIOS = ['Harborlight Pictures', 'Northstar Films', 'Red Canyon Studios', 'Bluebird Media', 'Silverline Entertainment',
  'Kitewing Productions', 'Atlas Frame', 'Moonrise Studios', 'Paper Lantern Films', 'Ironwood Pictures', 'Zephyr Films', 'Cobalt Reel',
  'Driftwood Studios', 'Open Sky Pictures', 'Saltmarsh Films', 'Lighthouse Media', 'Granite Gate', 'Velvet Owl Films', 'Tin Drum Pictures', 'Evergreen Frames'];

const actorsOfDirector: QuestionTemplate = {
  id: 'movies/actors-of-director', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('director').rows, 10).map((d) => ({
    question: `Which actors have played a lead role in a movie directed by ${String(d['name'])}? List each actor once.`,
    query: `SELECT DISTINCT T3.name FROM casting AS T1 JOIN movie AS T2 ON T1.movie_id = T2.id JOIN actor AS T3 ON T1.actor_id = T3.id JOIN director AS T4 ON T2.director_id = T4.id WHERE T4.name = ${sqlLiteral(d['name']!)} AND T1.role_type = 'lead'`,
    tables: ['casting', 'movie', 'actor', 'director'],
  })),
};

const profitableMovies: QuestionTemplate = {
  id: 'movies/gross-over-budget', difficulty: 'medium', perDatabase: 3,
  drafts: (_view, rng) => sampleSome(rng, ['drama', 'comedy', 'thriller', 'animation', 'documentary', 'science fiction'], 5).map((g) => ({
    question: `How many ${g} movies earned at least three times their budget at the box office?`,
    query: `SELECT COUNT(*) FROM movie WHERE genre = ${sqlLiteral(g)} AND box_office_millions >= 3 * budget_millions`,
    tables: ['movie'],
  })),
};

const coStars: QuestionTemplate = {
  id: 'movies/co-stars', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('actor').rows, 12).map((a) => ({
    question: `Which actors have appeared in at least one movie together with ${String(a['name'])}? List each once.`,
    query: `SELECT DISTINCT T3.name FROM casting AS T1 JOIN casting AS T2 ON T1.movie_id = T2.movie_id JOIN actor AS T3 ON T2.actor_id = T3.id JOIN actor AS T4 ON T1.actor_id = T4.id WHERE T4.name = ${sqlLiteral(a['name']!)} AND T3.id != T4.id`,
    tables: ['casting', 'actor'],
  })),
};

/**
 * The movies domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(moviesDomain, BUNDLED_SEED);
 * db.rows.get('studio')?.length;
 * ```
 */
export const moviesDomain: DomainSpec = {
  id: 'cinema',
  summary: 'Cinema: film studios, directors, movies with budgets and box office, actors and who was cast in what.',
  tables: [
    {
      name: 'studio', singular: 'studio', plural: 'studios', rowCount: STUDIOS.length,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => STUDIOS[ctx.index]!),
        category('country', 'country', ['United States', 'United Kingdom', 'France', 'South Korea', 'India', 'Canada'], { phrase: (v) => `based in ${v}` }),
        integer('founded_year', 'founding year', 1912, 2012, { summable: false }),
      ],
    },
    {
      name: 'director', singular: 'director', plural: 'directors', rowCount: 60,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('nationality', 'nationality', ['American', 'British', 'French', 'Korean', 'Indian', 'Canadian', 'Mexican', 'Italian']),
        integer('birth_year', 'birth year', 1940, 1992, { summable: false }),
      ],
    },
    {
      name: 'movie', singular: 'movie', plural: 'movies', rowCount: 380,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => inventedTitle(rng), { quoted: true }),
        ref('studio_id', 'studio', 'studio'),
        ref('director_id', 'director', 'director'),
        category('genre', 'genre', ['drama', 'comedy', 'thriller', 'animation', 'documentary', 'science fiction', 'horror', 'romance'], { weights: [6, 5, 4, 2, 1, 2, 2, 3] }),
        date('release_date', 'release date', '1995-01-01', '2024-11-30'),
        integer('runtime_minutes', 'running time in minutes', 72, 192, { gen: (ctx) => Math.round(100 + 18 * ctx.rng.normal()) }),
        real('budget_millions', 'budget in millions of dollars', 0.5, 250, 1, { gen: (ctx) => 0.5 + ctx.rng.float() ** 2.5 * 249.5 }),
        real('box_office_millions', 'box office gross in millions of dollars', 0.1, 1500, 1, {
          nullRate: 0.07, gen: (ctx) => Number(ctx.row['budget_millions']) * Math.exp(ctx.rng.normal() * 0.9 + 0.6),
        }),
        real('rating', 'critic rating', 2, 9.6, 1, { nullRate: 0.05, summable: false, gen: (ctx) => Math.max(2, Math.min(9.6, 6.6 + 1.1 * ctx.rng.normal())) }),
      ],
    },
    {
      name: 'actor', singular: 'actor', plural: 'actors', rowCount: 300,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        integer('birth_year', 'birth year', 1945, 2008, { summable: false }),
        category('nationality', 'nationality', ['American', 'British', 'French', 'Korean', 'Indian', 'Canadian', 'Australian', 'Spanish']),
      ],
    },
    {
      name: 'casting', singular: 'casting', plural: 'castings', rowCount: 1500,
      uniqueTogether: ['movie_id', 'actor_id'],
      columns: [
        key(),
        ref('movie_id', 'movie', 'movie'),
        ref('actor_id', 'actor', 'actor'),
        category('role_type', 'role type', ['lead', 'supporting', 'cameo'], { weights: [3, 6, 1], phrase: (v) => `in a ${v} role` }),
        real('fee_thousands', 'fee in thousands of dollars', 5, 20000, 0, {
          nullRate: 0.1, gen: (ctx) => ({ lead: 800, supporting: 150, cameo: 20 } as Record<string, number>)[String(ctx.row['role_type'])]! * Math.exp(ctx.rng.normal()),
        }),
      ],
    },
  ],
  templates: [actorsOfDirector, profitableMovies, coStars],
};
