/** A football league: teams, players, games and goals. */
import { category, date, integer, key, nameColumn, real, ref, refBy } from '../columns.js';
import { personName } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITY_NAMES } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const MASCOTS = ['Falcons', 'Mariners', 'Wolves', 'Comets', 'Lions', 'Rovers', 'Hawks', 'Pioneers', 'Titans', 'Foxes', 'Stallions',
  'Herons', 'Rangers', 'Bears', 'Storm', 'Harriers', 'Otters', 'Ravens', 'Lynx', 'Thunder'];

const homeWins: QuestionTemplate = {
  id: 'league/home-wins', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('team').rows, 8).map((t) => ({
    question: `How many home games did the ${String(t['name'])} win?`,
    query: `SELECT COUNT(*) FROM game AS T1 JOIN team AS T2 ON T1.home_team_id = T2.id WHERE T2.name = ${sqlLiteral(t['name']!)} AND T1.home_goals > T1.away_goals`,
    tables: ['game', 'team'],
  })),
};

const topScorerOfTeam: QuestionTemplate = {
  id: 'league/top-scorer-of-team', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('team').rows, 10).map((t) => {
    const from = `FROM goal AS T1 JOIN player AS T2 ON T1.player_id = T2.id JOIN team AS T3 ON T2.team_id = T3.id WHERE T3.name = ${sqlLiteral(t['name']!)} GROUP BY T2.id`;
    return {
      question: `Who is the top goal scorer of the ${String(t['name'])}?`,
      query: `SELECT T2.name ${from} ORDER BY COUNT(*) DESC LIMIT 1`,
      tables: ['goal', 'player', 'team'],
      tie: { probe: `SELECT COUNT(*) ${from} ORDER BY COUNT(*) DESC LIMIT 2`, k: 1 },
    };
  }),
};

const goalsInGamesOfTeam: QuestionTemplate = {
  id: 'league/total-goals-scored', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('team').rows, 8).map((t) => ({
    question: `How many goals did the ${String(t['name'])} score in total, adding their home and away games?`,
    query: `SELECT (SELECT SUM(T1.home_goals) FROM game AS T1 JOIN team AS T2 ON T1.home_team_id = T2.id WHERE T2.name = ${sqlLiteral(t['name']!)}) + (SELECT SUM(T1.away_goals) FROM game AS T1 JOIN team AS T2 ON T1.away_team_id = T2.id WHERE T2.name = ${sqlLiteral(t['name']!)})`,
    tables: ['game', 'team'],
  })),
};

/**
 * The sports league domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(sportsDomain, BUNDLED_SEED);
 * db.rows.get('team')?.length;
 * ```
 */
export const sportsDomain: DomainSpec = {
  id: 'football_league',
  summary: 'A football league season: teams, their players, the games played and the goals scored.',
  tables: [
    {
      name: 'team', singular: 'team', plural: 'teams', rowCount: 20,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => `${CITY_NAMES[ctx.index * 2]!} ${MASCOTS[ctx.index]!}`),
        category('division', 'division', ['North', 'South'], { phrase: (v) => `in the ${v} division` }),
        integer('founded_year', 'founding year', 1878, 1998, { summable: false }),
        integer('stadium_capacity', 'stadium capacity', 8000, 82000, { gen: (ctx) => Math.round((8000 + ctx.rng.float() ** 2 * 74000) / 100) * 100 }),
        real('budget_millions', 'budget in millions of euros', 8, 420, 1),
      ],
    },
    {
      name: 'player', singular: 'player', plural: 'players', rowCount: 500,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        ref('team_id', 'team', 'team'),
        category('position', 'position', ['goalkeeper', 'defender', 'midfielder', 'forward'], { weights: [2, 6, 6, 4], phrase: (v) => `playing as ${v}` }),
        date('birth_date', 'birth date', '1986-01-01', '2006-12-31'),
        category('nationality', 'nationality', ['Portuguese', 'Spanish', 'French', 'German', 'English', 'Brazilian', 'Argentine', 'Nigerian', 'Dutch', 'Japanese']),
        integer('shirt_number', 'shirt number', 1, 99, { summable: false }),
        real('weekly_wage', 'weekly wage', 800, 250000, 0, { currency: '€', nullRate: 0.05, gen: (ctx) => 800 + ctx.rng.float() ** 3 * 249200 }),
      ],
    },
    {
      name: 'game', singular: 'game', plural: 'games', rowCount: 380,
      columns: [
        key(),
        ref('home_team_id', 'team', 'home team'),
        refBy('away_team_id', 'team', 'away team', (ctx) => {
          for (;;) { const t = ctx.pick('team'); if (t !== ctx.row['home_team_id']) return t; }
        }),
        date('game_date', 'game date', '2023-08-12', '2024-05-26'),
        integer('home_goals', 'home goals', 0, 7, { gen: (ctx) => Math.min(7, Math.floor(-Math.log(1 - ctx.rng.float()) * 1.5)) }),
        integer('away_goals', 'away goals', 0, 6, { gen: (ctx) => Math.min(6, Math.floor(-Math.log(1 - ctx.rng.float()) * 1.15)) }),
        integer('attendance', 'attendance', 3000, 80000, { nullRate: 0.04 }),
      ],
    },
    {
      name: 'goal', singular: 'goal', plural: 'goals', rowCount: 950,
      columns: [
        key(),
        ref('game_id', 'game', 'game'),
        refBy('player_id', 'player', 'scorer', (ctx) => {
          // Scorers play for one of the two teams of the game.
          const home = ctx.lookup('game', ctx.row['game_id']!, 'home_team_id');
          const away = ctx.lookup('game', ctx.row['game_id']!, 'away_team_id');
          for (;;) {
            const p = ctx.pick('player');
            const team = ctx.lookup('player', p, 'team_id');
            if (team === home || team === away) return p;
          }
        }),
        integer('minute', 'minute', 1, 95, { summable: false }),
        category('kind', 'kind of goal', ['open play', 'header', 'penalty', 'free kick', 'own goal'], { weights: [14, 4, 2, 1, 1] }),
      ],
    },
  ],
  templates: [homeWins, topScorerOfTeam, goalsInGamesOfTeam],
};
