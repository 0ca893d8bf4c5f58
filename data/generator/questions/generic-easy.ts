/**
 * Easy templates (Spider's easiest tier): one table, at most a filter or two, a count, an
 * aggregate or a short list. They work on any domain through the column roles.
 */
import type { Rng } from '../../../src/base/rng.js';
import type { ColumnSpec } from '../schema.js';
import type { DbView, TableView } from './db-view.js';
import {
  an, categoryClause, categoryPredicate, notNullGuard, phrase, pluralize, roundThreshold, sampleSome, say, sqlLiteral, theEntity, threshold, where,
} from './phrasing.js';
import type { QuestionTemplate } from './template.js';

type Binding = { t: TableView; c: ColumnSpec };

function categoryBindings(view: DbView): Binding[] {
  return view.tables.flatMap((t) => t.categories.map((c) => ({ t, c })));
}
function numberBindings(view: DbView): Binding[] {
  return view.tables.flatMap((t) => t.numbers.map((c) => ({ t, c })));
}
function dateBindings(view: DbView): Binding[] {
  return view.tables.flatMap((t) => t.dates.map((c) => ({ t, c })));
}

/**
 * The SQL aggregates with how a question names them.
 *
 * @example
 * ```ts
 * AGGREGATES[0]; // { fn: 'AVG', words: ['average', 'mean'] }
 * ```
 */
export const AGGREGATES = [
  { fn: 'AVG', words: ['average', 'mean'] },
  { fn: 'MAX', words: ['highest', 'largest', 'maximum'] },
  { fn: 'MIN', words: ['lowest', 'smallest', 'minimum'] },
  { fn: 'SUM', words: ['total', 'combined'] },
] as const;

/**
 * The aggregates that make sense for a column: no totals of years, ratings or unit prices.
 *
 * @example
 * ```ts
 * aggregatesFor(yearColumn).map((a) => a.fn); // ['AVG', 'MAX', 'MIN']
 * ```
 */
export function aggregatesFor(column: ColumnSpec): (typeof AGGREGATES)[number][] {
  return AGGREGATES.filter((a) => a.fn !== 'SUM' || column.summable !== false);
}

/**
 * Comparison operators with their English.
 *
 * @example
 * ```ts
 * COMPARISONS[0]; // { op: '>', words: ['more than', 'above', 'greater than'] }
 * ```
 */
export const COMPARISONS = [
  { op: '>', words: ['more than', 'above', 'greater than'] },
  { op: '<', words: ['less than', 'below', 'under'] },
  { op: '>=', words: ['at least'] },
  { op: '<=', words: ['at most', 'no more than'] },
] as const;

function sampleValues(view: DbView, b: Binding, rng: Rng, n: number) {
  return sampleSome(rng, view.distinct(b.t, b.c), n);
}

const countAll: QuestionTemplate = {
  id: 'easy/count-all', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => view.tables.map((t) => ({
    question: phrase(rng, [
      `How many ${t.spec.plural} are there?`,
      `What is the total number of ${t.spec.plural}?`,
      `How many ${t.spec.plural} are recorded in the database?`,
    ]),
    query: `SELECT COUNT(*) FROM ${t.name}`,
    tables: [t.name],
  })),
};

const countByCategory: QuestionTemplate = {
  id: 'easy/count-where-category', difficulty: 'easy', perDatabase: 6,
  drafts: (view, rng) => categoryBindings(view).flatMap((b) => sampleValues(view, b, rng, 3).map((v) => ({
    question: phrase(rng, [
      `How many ${b.t.spec.plural} are there ${categoryClause(b.c, v)}?`,
      `Count the ${b.t.spec.plural} ${categoryClause(b.c, v)}.`,
      `What is the number of ${b.t.spec.plural} ${categoryClause(b.c, v)}?`,
    ]),
    query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} = ${sqlLiteral(v)}`,
    tables: [b.t.name],
  }))),
};

const countByComparison: QuestionTemplate = {
  id: 'easy/count-where-compare', difficulty: 'easy', perDatabase: 5,
  drafts: (view, rng) => numberBindings(view).flatMap((b) => COMPARISONS.map((cmp) => {
    const x = threshold(view.distinct(b.t, b.c), rng);
    return {
      question: phrase(rng, [
        // The first wording of each operator is the one that reads well after "of".
        `How many ${b.t.spec.plural} have ${an(b.c.label)} of ${cmp.words[0]} ${say(b.c, x)}?`,
        `Count the ${b.t.spec.plural} whose ${b.c.label} is ${rng.choice(cmp.words)} ${say(b.c, x)}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} ${cmp.op} ${x}`,
      tables: [b.t.name],
    };
  })),
};

const countByDate: QuestionTemplate = {
  id: 'easy/count-where-date', difficulty: 'easy', perDatabase: 4,
  drafts: (view, rng) => dateBindings(view).flatMap((b) => {
    const dates = (view.distinct(b.t, b.c) as string[]).slice().sort();
    const pivot = dates[Math.floor((0.25 + rng.float() * 0.5) * dates.length)] ?? '2020-01-01';
    const year = pivot.slice(0, 4);
    return [
      {
        question: `How many ${b.t.spec.plural} have ${an(b.c.label)} after ${say(b.c, pivot)}?`,
        query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} > ${sqlLiteral(pivot)}`,
        tables: [b.t.name],
      },
      {
        question: phrase(rng, [
          `How many ${b.t.spec.plural} have ${an(b.c.label)} before ${say(b.c, pivot)}?`,
          `Count the ${b.t.spec.plural} whose ${b.c.label} is earlier than ${say(b.c, pivot)}.`,
        ]),
        query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} < ${sqlLiteral(pivot)}`,
        tables: [b.t.name],
      },
      {
        question: phrase(rng, [
          `How many ${b.t.spec.plural} have ${an(b.c.label)} in ${year}?`,
          `Count the ${b.t.spec.plural} whose ${b.c.label} falls in ${year}.`,
        ]),
        query: `SELECT COUNT(*) FROM ${b.t.name} WHERE strftime('%Y', ${b.c.name}) = '${year}'`,
        tables: [b.t.name],
      },
    ];
  }),
};

const namesByCategory: QuestionTemplate = {
  id: 'easy/names-where-category', difficulty: 'easy', perDatabase: 4,
  drafts: (view, rng) => categoryBindings(view).filter((b) => b.t.nameColumn).flatMap((b) =>
    sampleValues(view, b, rng, 4).map((v) => ({
      question: phrase(rng, [
        `List the ${pluralize(b.t.nameColumn!.label)} of the ${b.t.spec.plural} ${categoryClause(b.c, v)}.`,
        `Which ${b.t.spec.plural} are there ${categoryClause(b.c, v)}? Give their ${pluralize(b.t.nameColumn!.label)}.`,
      ]),
      query: `SELECT ${b.t.nameColumn!.name} FROM ${b.t.name} WHERE ${b.c.name} = ${sqlLiteral(v)}`,
      tables: [b.t.name],
    }))),
};

const namesByComparison: QuestionTemplate = {
  id: 'easy/names-where-compare', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => numberBindings(view).filter((b) => b.t.nameColumn).flatMap((b) => {
    const values = (view.distinct(b.t, b.c) as number[]).slice().sort((x, y) => x - y);
    const highValue = values[Math.max(0, values.length - 1 - rng.intBetween(3, 12))];
    const lowValue = values[Math.min(values.length - 1, rng.intBetween(3, 12))];
    if (highValue === undefined || lowValue === undefined) return [];
    const [high, low] = [roundThreshold(highValue), roundThreshold(lowValue)];
    const name = b.t.nameColumn!;
    return [
      {
        question: `Which ${b.t.spec.plural} have ${an(b.c.label)} above ${say(b.c, high)}? List their ${pluralize(name.label)}.`,
        query: `SELECT ${name.name} FROM ${b.t.name} WHERE ${b.c.name} > ${high}`,
        tables: [b.t.name],
      },
      {
        question: `List the ${pluralize(name.label)} of ${b.t.spec.plural} with ${an(b.c.label)} below ${say(b.c, low)}.`,
        query: `SELECT ${name.name} FROM ${b.t.name} WHERE ${b.c.name} < ${low}`,
        tables: [b.t.name],
      },
    ];
  }),
};

const aggregateAll: QuestionTemplate = {
  id: 'easy/aggregate', difficulty: 'easy', perDatabase: 4,
  drafts: (view, rng) => numberBindings(view).flatMap((b) => aggregatesFor(b.c).map((a) => ({
    question: phrase(rng, [
      `What is the ${rng.choice(a.words)} ${b.c.label} of all ${b.t.spec.plural}?`,
      `Across all ${b.t.spec.plural}, what is the ${rng.choice(a.words)} ${b.c.label}?`,
    ]),
    query: `SELECT ${a.fn}(${b.c.name}) FROM ${b.t.name}`,
    tables: [b.t.name],
  }))),
};

const aggregateByCategory: QuestionTemplate = {
  id: 'easy/aggregate-where-category', difficulty: 'easy', perDatabase: 5,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.flatMap((n) =>
    aggregatesFor(n).map((a) => {
      const v = rng.choice(view.distinct(t, c));
      return {
        question: phrase(rng, [
          `What is the ${rng.choice(a.words)} ${n.label} of ${t.spec.plural} ${categoryClause(c, v)}?`,
          `For ${t.spec.plural} ${categoryClause(c, v)}, what is the ${rng.choice(a.words)} ${n.label}?`,
        ]),
        query: `SELECT ${a.fn}(${n.name}) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)}`,
        tables: [t.name],
      };
    })))),
};

const attributeOfNamed: QuestionTemplate = {
  id: 'easy/attribute-of-named', difficulty: 'easy', perDatabase: 5,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) =>
    [...t.numbers, ...t.categories, ...t.dates].flatMap((col) => sampleSome(rng, t.rows, 2).map((row) => ({
      question: phrase(rng, [
        `What is the ${col.label} of ${theEntity(t, row[t.nameColumn!.name]!)}?`,
        `Tell me the ${col.label} of ${theEntity(t, row[t.nameColumn!.name]!)}.`,
      ]),
      query: `SELECT ${col.name} FROM ${t.name} WHERE ${t.nameColumn!.name} = ${sqlLiteral(row[t.nameColumn!.name]!)}`,
      tables: [t.name],
    })))),
};

const countDistinct: QuestionTemplate = {
  id: 'easy/count-distinct', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => categoryBindings(view).map((b) => ({
    question: phrase(rng, [
      `How many different ${pluralize(b.c.label)} do the ${b.t.spec.plural} have?`,
      `How many distinct ${pluralize(b.c.label)} appear among the ${b.t.spec.plural}?`,
    ]),
    query: `SELECT COUNT(DISTINCT ${b.c.name}) FROM ${b.t.name}`,
    tables: [b.t.name],
  })),
};

const distinctValues: QuestionTemplate = {
  id: 'easy/distinct-values', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => categoryBindings(view).map((b) => ({
    question: phrase(rng, [
      `What are the different ${pluralize(b.c.label)} of the ${b.t.spec.plural}?`,
      `List every distinct ${b.c.label} that the ${b.t.spec.plural} have.`,
    ]),
    query: `SELECT DISTINCT ${b.c.name} FROM ${b.t.name}${where([notNullGuard(b.c)])}`,
    tables: [b.t.name],
  })),
};

const countCategoryAndNumber: QuestionTemplate = {
  id: 'easy/count-category-and-compare', difficulty: 'easy', perDatabase: 4,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const x = threshold(view.distinct(t, n), rng);
    return {
      question: phrase(rng, [
        `How many ${t.spec.plural} ${categoryClause(c, v)} have ${an(n.label)} above ${say(n, x)}?`,
        `Among ${t.spec.plural} ${categoryClause(c, v)}, how many have ${an(n.label)} greater than ${say(n, x)}?`,
      ]),
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} AND ${n.name} > ${x}`,
      tables: [t.name],
    };
  }))),
};

const countEitherCategory: QuestionTemplate = {
  id: 'easy/count-either-category', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => categoryBindings(view).flatMap((b) => {
    const [v1, v2] = sampleValues(view, b, rng, 2);
    if (v1 === undefined || v2 === undefined) return [];
    return [{
      question: phrase(rng, [
        `How many ${b.t.spec.plural} have ${say(b.c, v1)} or ${say(b.c, v2)} as their ${b.c.label}?`,
        `Count the ${b.t.spec.plural} whose ${b.c.label} is either ${say(b.c, v1)} or ${say(b.c, v2)}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} = ${sqlLiteral(v1)} OR ${b.c.name} = ${sqlLiteral(v2)}`,
      tables: [b.t.name],
    }];
  }),
};

const countBetween: QuestionTemplate = {
  id: 'easy/count-between', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => numberBindings(view).flatMap((b) => {
    const a = threshold(view.distinct(b.t, b.c), rng);
    const z = threshold(view.distinct(b.t, b.c), rng);
    if (a === z) return [];
    const [lo, hi] = a < z ? [a, z] : [z, a];
    return [{
      question: phrase(rng, [
        `How many ${b.t.spec.plural} have ${an(b.c.label)} between ${say(b.c, lo)} and ${say(b.c, hi)}, inclusive?`,
        `Count the ${b.t.spec.plural} with ${an(b.c.label)} from ${say(b.c, lo)} to ${say(b.c, hi)} (both included).`,
      ]),
      query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} BETWEEN ${lo} AND ${hi}`,
      tables: [b.t.name],
    }];
  }),
};

const countMissing: QuestionTemplate = {
  id: 'easy/count-null', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => view.tables.flatMap((t) => t.spec.columns.filter((c) => c.nullable && c.role !== 'key').flatMap((c) => [
    {
      question: phrase(rng, [
        `How many ${t.spec.plural} have no ${c.label} recorded?`,
        `For how many ${t.spec.plural} is the ${c.label} missing?`,
      ]),
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} IS NULL`,
      tables: [t.name],
    },
    {
      question: `How many ${t.spec.plural} have a known ${c.label}?`,
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} IS NOT NULL`,
      tables: [t.name],
    },
  ])),
};

const countNamePrefix: QuestionTemplate = {
  id: 'easy/count-name-prefix', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => {
    const name = t.nameColumn!;
    const letters = [...new Set(t.rows.map((r) => String(r[name.name]).charAt(0).toUpperCase()))].filter((l) => /[A-Z]/.test(l));
    return sampleSome(rng, letters, 2).map((letter) => ({
      question: phrase(rng, [
        `How many ${t.spec.plural} have ${an(name.label)} that starts with the letter ${letter}?`,
        `Count the ${t.spec.plural} whose ${name.label} begins with ${letter}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${name.name} LIKE '${letter}%'`,
      tables: [t.name],
    }));
  }),
};

const countNotCategory: QuestionTemplate = {
  id: 'easy/count-not-category', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => categoryBindings(view).map((b) => {
    const v = rng.choice(view.distinct(b.t, b.c));
    return {
      question: phrase(rng, [
        `How many ${b.t.spec.plural} have ${an(b.c.label)} other than ${say(b.c, v)}?`,
        `Count the ${b.t.spec.plural} whose ${b.c.label} is not ${say(b.c, v)}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} != ${sqlLiteral(v)}`,
      tables: [b.t.name],
    };
  }),
};

const namesInDateRange: QuestionTemplate = {
  id: 'easy/names-in-date-range', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => dateBindings(view).filter((b) => b.t.nameColumn).flatMap((b) => {
    const dates = (view.distinct(b.t, b.c) as string[]).slice().sort();
    const start = rng.int(Math.max(1, dates.length - 6));
    const from = dates[start];
    const to = dates[Math.min(dates.length - 1, start + rng.intBetween(2, 6))];
    if (!from || !to || from === to) return [];
    return [{
      question: `Which ${b.t.spec.plural} have ${an(b.c.label)} between ${say(b.c, from)} and ${say(b.c, to)}? List their ${pluralize(b.t.nameColumn!.label)}.`,
      query: `SELECT ${b.t.nameColumn!.name} FROM ${b.t.name} WHERE ${b.c.name} BETWEEN ${sqlLiteral(from)} AND ${sqlLiteral(to)}`,
      tables: [b.t.name],
    }];
  }),
};

const countInList: QuestionTemplate = {
  id: 'easy/count-in-list', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => categoryBindings(view).flatMap((b) => {
    const values = sampleValues(view, b, rng, 3);
    if (values.length < 3) return [];
    const spoken = `${say(b.c, values[0]!)}, ${say(b.c, values[1]!)} or ${say(b.c, values[2]!)}`;
    return [{
      question: `How many ${b.t.spec.plural} have ${an(b.c.label)} of ${spoken}?`,
      query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} IN (${values.map(sqlLiteral).join(', ')})`,
      tables: [b.t.name],
    }];
  }),
};

const earliestDate: QuestionTemplate = {
  id: 'easy/date-extreme', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => dateBindings(view).flatMap((b) => [
    {
      question: phrase(rng, [
        `What is the earliest ${b.c.label} among the ${b.t.spec.plural}?`,
        `When was the first ${b.c.label} recorded for any ${b.t.spec.singular}?`,
      ]),
      query: `SELECT MIN(${b.c.name}) FROM ${b.t.name}`,
      tables: [b.t.name],
    },
    {
      question: `What is the most recent ${b.c.label} among the ${b.t.spec.plural}?`,
      query: `SELECT MAX(${b.c.name}) FROM ${b.t.name}`,
      tables: [b.t.name],
    },
  ]),
};

const namesWithValueByCategory: QuestionTemplate = {
  id: 'easy/names-and-values-where-category', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    return {
      question: phrase(rng, [
        `Show the ${pluralize(t.nameColumn!.label)} and ${pluralize(n.label)} of ${t.spec.plural} ${categoryClause(c, v)}.`,
        `For each ${t.spec.singular} ${categoryClause(c, v)}, give its ${t.nameColumn!.label} and ${n.label}.`,
      ]),
      query: `SELECT ${t.nameColumn!.name}, ${n.name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)}`,
      tables: [t.name],
    };
  }))),
};

const namesByCategoryAndNumber: QuestionTemplate = {
  id: 'easy/names-where-category-and-compare', difficulty: 'easy', perDatabase: 3,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const x = threshold(view.distinct(t, n), rng);
    return {
      question: `Which ${t.spec.plural} ${categoryClause(c, v)} have ${an(n.label)} below ${say(n, x)}? Give their ${pluralize(t.nameColumn!.label)}.`,
      query: `SELECT ${t.nameColumn!.name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} AND ${n.name} < ${x}`,
      tables: [t.name],
    };
  }))),
};

const averageAfterDate: QuestionTemplate = {
  id: 'easy/aggregate-after-date', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.dates.flatMap((d) => t.numbers.map((n) => {
    const dates = (view.distinct(t, d) as string[]).slice().sort();
    const pivot = dates[Math.floor((0.3 + rng.float() * 0.4) * dates.length)] ?? '2020-01-01';
    return {
      question: `What is the average ${n.label} of ${t.spec.plural} with ${an(d.label)} on or after ${say(d, pivot)}?`,
      query: `SELECT AVG(${n.name}) FROM ${t.name} WHERE ${d.name} >= ${sqlLiteral(pivot)}`,
      tables: [t.name],
    };
  }))),
};

const countCategoryAfterDate: QuestionTemplate = {
  id: 'easy/count-category-after-date', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.dates.map((d) => {
    const v = rng.choice(view.distinct(t, c));
    const dates = (view.distinct(t, d) as string[]).slice().sort();
    const pivot = dates[Math.floor((0.3 + rng.float() * 0.4) * dates.length)] ?? '2020-01-01';
    return {
      question: `How many ${t.spec.plural} ${categoryClause(c, v)} have ${an(d.label)} before ${say(d, pivot)}?`,
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} AND ${d.name} < ${sqlLiteral(pivot)}`,
      tables: [t.name],
    };
  }))),
};

const countNameContains: QuestionTemplate = {
  id: 'easy/count-name-contains', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn?.quoted).flatMap((t) => {
    const words = [...new Set(t.rows.flatMap((r) => String(r[t.nameColumn!.name]).split(/[^A-Za-z]+/)))].filter((w) => w.length >= 4);
    return sampleSome(rng, words, 3).map((w) => ({
      question: phrase(rng, [
        `How many ${t.spec.plural} have the word "${w}" in their ${t.nameColumn!.label}?`,
        `Count the ${t.spec.plural} whose ${t.nameColumn!.label} contains "${w}".`,
      ]),
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${t.nameColumn!.name} LIKE '%${w}%'`,
      tables: [t.name],
    }));
  }),
};

const countDateRange: QuestionTemplate = {
  id: 'easy/count-date-range', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => dateBindings(view).map((b) => {
    const year = rng.choice(view.distinct(b.t, b.c) as string[]).slice(0, 4);
    const [m1, m2] = [rng.intBetween(1, 6), rng.intBetween(7, 12)];
    const from = `${year}-${String(m1).padStart(2, '0')}-01`;
    const to = `${year}-${String(m2).padStart(2, '0')}-28`;
    return {
      question: `How many ${b.t.spec.plural} have ${an(b.c.label)} between ${say(b.c, from)} and ${say(b.c, to)}?`,
      query: `SELECT COUNT(*) FROM ${b.t.name} WHERE ${b.c.name} BETWEEN ${sqlLiteral(from)} AND ${sqlLiteral(to)}`,
      tables: [b.t.name],
    };
  }),
};

const dateSpan: QuestionTemplate = {
  id: 'easy/date-span', difficulty: 'easy', perDatabase: 1,
  drafts: (view, rng) => dateBindings(view).map((b) => ({
    question: phrase(rng, [
      `What are the earliest and the latest ${pluralize(b.c.label)} of the ${b.t.spec.plural}?`,
      `Give the first and the last ${b.c.label} found among the ${b.t.spec.plural}.`,
    ]),
    query: `SELECT MIN(${b.c.name}), MAX(${b.c.name}) FROM ${b.t.name}`,
    tables: [b.t.name],
  })),
};

const countAndAverage: QuestionTemplate = {
  id: 'easy/count-and-average', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    return {
      question: `How many ${t.spec.plural} are there ${categoryClause(c, v)}, and what is their average ${n.label}?`,
      query: `SELECT COUNT(*), AVG(${n.name}) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)}`,
      tables: [t.name],
    };
  }))),
};

const countEitherConditions: QuestionTemplate = {
  id: 'easy/count-either-condition', difficulty: 'easy', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const values = (view.distinct(t, n) as number[]).slice().sort((a, b) => b - a);
    const x = roundThreshold(values[Math.min(values.length - 1, rng.intBetween(3, 15))] ?? 0);
    return {
      question: `How many ${t.spec.plural} either ${categoryPredicate(c, v)} or have ${an(n.label)} above ${say(n, x)}?`,
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} OR ${n.name} > ${x}`,
      tables: [t.name],
    };
  }))),
};

/**
 * Every generic easy template.
 *
 * @example
 * ```ts
 * EASY_TEMPLATES.map((t) => t.id);
 * ```
 */
export const EASY_TEMPLATES: readonly QuestionTemplate[] = [
  countAll, countByCategory, countByComparison, countByDate, namesByCategory, namesByComparison,
  aggregateAll, aggregateByCategory, attributeOfNamed, countDistinct, distinctValues,
  countCategoryAndNumber, countEitherCategory, countBetween, countMissing, countNamePrefix,
  countNotCategory, namesInDateRange, countInList, earliestDate, namesWithValueByCategory,
  namesByCategoryAndNumber, averageAfterDate, countCategoryAfterDate, countNameContains, countDateRange,
  dateSpan, countAndAverage, countEitherConditions,
];

