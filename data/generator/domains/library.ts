/** A public library: authors, books, members and loans. */
import { category, date, integer, key, nameColumn, ref } from '../columns.js';
import { addDays, inventedTitle, personName } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITY_NAMES } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const overdueLoans: QuestionTemplate = {
  id: 'library/late-returns-of-member', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('member').rows, 10).map((m) => ({
    question: `How many books did ${String(m['name'])} return after the due date?`,
    query: `SELECT COUNT(*) FROM loan AS T1 JOIN member AS T2 ON T1.member_id = T2.id WHERE T2.name = ${sqlLiteral(m['name']!)} AND T1.returned_on > T1.due_date`,
    tables: ['loan', 'member'],
  })),
};

const unreturnedByGenre: QuestionTemplate = {
  id: 'library/unreturned-by-genre', difficulty: 'hard', perDatabase: 3,
  drafts: () => [{
    question: 'For each genre, how many borrowed books have not been returned yet?',
    query: 'SELECT T2.genre, COUNT(*) FROM loan AS T1 JOIN book AS T2 ON T1.book_id = T2.id WHERE T1.returned_on IS NULL GROUP BY T2.genre',
    tables: ['loan', 'book'],
  }, {
    question: 'Which author\'s books have been borrowed the most times? Give the author\'s name.',
    query: 'SELECT T3.name FROM loan AS T1 JOIN book AS T2 ON T1.book_id = T2.id JOIN author AS T3 ON T2.author_id = T3.id GROUP BY T3.id ORDER BY COUNT(*) DESC LIMIT 1',
    tables: ['loan', 'book', 'author'],
    tie: { probe: 'SELECT COUNT(*) FROM loan AS T1 JOIN book AS T2 ON T1.book_id = T2.id JOIN author AS T3 ON T2.author_id = T3.id GROUP BY T3.id ORDER BY COUNT(*) DESC LIMIT 2', k: 1 },
  }],
};

const neverBorrowedByAuthor: QuestionTemplate = {
  id: 'library/never-borrowed-books-of-author', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('author').rows, 10).map((a) => ({
    question: `Which books by ${String(a['name'])} have never been borrowed? Give their titles.`,
    query: `SELECT T1.title FROM book AS T1 JOIN author AS T2 ON T1.author_id = T2.id WHERE T2.name = ${sqlLiteral(a['name']!)} AND T1.id NOT IN (SELECT book_id FROM loan)`,
    tables: ['book', 'author', 'loan'],
  })),
};

/**
 * The library domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(libraryDomain, BUNDLED_SEED);
 * db.rows.get('author')?.length;
 * ```
 */
export const libraryDomain: DomainSpec = {
  id: 'library',
  summary: 'A public library: authors, the books it holds, its members and their loans.',
  tables: [
    {
      name: 'author', singular: 'author', plural: 'authors', rowCount: 90,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('nationality', 'nationality', ['Portuguese', 'Spanish', 'French', 'German', 'British', 'American', 'Nigerian', 'Japanese', 'Argentine', 'Irish']),
        integer('birth_year', 'birth year', 1870, 1995, { summable: false }),
        {
          // Living authors have no death year.
          ...integer('death_year', 'death year', 1920, 2024, { summable: false }),
          nullable: true,
          generate: (ctx) => {
            const year = Number(ctx.row['birth_year']) + ctx.rng.intBetween(40, 95);
            return year > 2024 ? null : year;
          },
        },
      ],
    },
    {
      name: 'book', singular: 'book', plural: 'books', rowCount: 450,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => inventedTitle(rng), { quoted: true }),
        ref('author_id', 'author', 'author'),
        category('genre', 'genre', ['novel', 'mystery', 'science fiction', 'biography', 'history', 'poetry', 'children', 'travel'], { weights: [8, 5, 4, 3, 3, 2, 4, 2] }),
        integer('published_year', 'publication year', 1905, 2024, { summable: false }),
        integer('pages', 'page count', 48, 980, { gen: (ctx) => Math.round(48 + ctx.rng.float() ** 1.5 * 932) }),
        category('shelf', 'shelf', ['A', 'B', 'C', 'D', 'E', 'F'], { phrase: (v) => `on shelf ${v}` }),
      ],
    },
    {
      name: 'member', singular: 'member', plural: 'members', rowCount: 350,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('city', 'city', CITY_NAMES.slice(0, 5), { phrase: (v) => `living in ${v}` }),
        date('joined_on', 'membership start date', '2012-01-01', '2024-10-31'),
        category('membership_type', 'membership type', ['standard', 'student', 'senior', 'family'], { weights: [6, 3, 2, 2] }),
      ],
    },
    {
      name: 'loan', singular: 'loan', plural: 'loans', rowCount: 1900,
      columns: [
        key(),
        ref('book_id', 'book', 'book'),
        ref('member_id', 'member', 'member'),
        date('loan_date', 'loan date', '2021-01-01', '2024-11-30'),
        date('due_date', 'due date', '2021-01-01', '2024-12-31', { gen: (ctx) => addDays(String(ctx.row['loan_date']), 21) }),
        date('returned_on', 'return date', '2021-01-01', '2024-12-31', {
          nullRate: 0.12,
          gen: (ctx) => addDays(String(ctx.row['loan_date']), ctx.rng.float() < 0.8 ? ctx.rng.intBetween(2, 21) : ctx.rng.intBetween(22, 60)),
        }),
      ],
    },
  ],
  templates: [overdueLoans, unreturnedByGenre, neverBorrowedByAuthor],
};
