/**
 * Extra-hard templates: set operations (INTERSECT, EXCEPT, UNION), correlated subqueries,
 * subqueries in FROM, and multi-step arithmetic.
 */
import type { DbView, Relation } from './db-view.js';
import { joinOn } from './join-sql.js';
import {
  an, asRole, categoryClause, categoryPredicate, notNullGuard, phrase, pluralize, roundThreshold, sampleSome, say, sqlLiteral, threshold, where,
} from './phrasing.js';
import type { QuestionTemplate } from './template.js';

function namedWithChildCategory(view: DbView): { rel: Relation; c: Relation['child']['categories'][number] }[] {
  return view.namedRelations().flatMap((rel) => rel.child.categories.map((c) => ({ rel, c })));
}

const parentsWithBothCategories: QuestionTemplate = {
  id: 'extra/intersect-parents', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => namedWithChildCategory(view).flatMap(({ rel, c }) => {
    const [v1, v2] = sampleSome(rng, view.distinct(rel.child, c), 2);
    if (v1 === undefined || v2 === undefined) return [];
    const part = (v: unknown) => `SELECT T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} WHERE T1.${c.name} = ${sqlLiteral(v as string)}`;
    return [{
      question: phrase(rng, [
        `Which ${rel.parent.spec.plural} have both ${rel.child.spec.plural}${asRole(rel)} ${categoryClause(c, v1)} and ${rel.child.spec.plural}${asRole(rel)} ${categoryClause(c, v2)}?`,
        `List the ${pluralize(rel.parent.nameColumn!.label)} of ${rel.parent.spec.plural} that have at least one ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v1)} and also at least one ${categoryClause(c, v2)}.`,
      ]),
      query: `${part(v1)} INTERSECT ${part(v2)}`,
      tables: [rel.child.name, rel.parent.name],
    }];
  }),
};

const parentsWithOneCategoryNotOther: QuestionTemplate = {
  id: 'extra/except-parents', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => namedWithChildCategory(view).flatMap(({ rel, c }) => {
    const [v1, v2] = sampleSome(rng, view.distinct(rel.child, c), 2);
    if (v1 === undefined || v2 === undefined) return [];
    const part = (v: unknown) => `SELECT T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} WHERE T1.${c.name} = ${sqlLiteral(v as string)}`;
    return [{
      question: phrase(rng, [
        `Which ${rel.parent.spec.plural} have ${rel.child.spec.plural}${asRole(rel)} ${categoryClause(c, v1)} but none ${categoryClause(c, v2)}?`,
        `Find the ${rel.parent.spec.plural} with at least one ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v1)} and no ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v2)}.`,
      ]),
      query: `${part(v1)} EXCEPT ${part(v2)}`,
      tables: [rel.child.name, rel.parent.name],
    }];
  }),
};

const namesEitherCondition: QuestionTemplate = {
  id: 'extra/union-names', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const values = (view.distinct(t, n) as number[]).slice().sort((a, b) => b - a);
    const x = roundThreshold(values[Math.min(values.length - 1, rng.intBetween(2, 6))] ?? 0);
    const name = t.nameColumn!.name;
    return {
      question: `List the ${pluralize(t.nameColumn!.label)} of ${t.spec.plural} that either ${categoryPredicate(c, v)} or have ${an(n.label)} above ${say(n, x)}.`,
      query: `SELECT ${name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} UNION SELECT ${name} FROM ${t.name} WHERE ${n.name} > ${x}`,
      tables: [t.name],
    };
  }))),
};

const countAboveOwnParentAverage: QuestionTemplate = {
  id: 'extra/correlated-above-parent-average', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.child.numbers.map((n) => ({
    question: phrase(rng, [
      `How many ${rel.child.spec.plural} have ${an(n.label)} above the average of the ${rel.child.spec.plural} with the same ${rel.column.label}?`,
      `Count the ${rel.child.spec.plural} whose ${n.label} beats the average ${n.label} among ${rel.child.spec.plural} sharing their ${rel.column.label}.`,
    ]),
    query: `SELECT COUNT(*) FROM ${rel.child.name} AS T1 WHERE T1.${n.name} > (SELECT AVG(T2.${n.name}) FROM ${rel.child.name} AS T2 WHERE T2.${rel.column.name} = T1.${rel.column.name})`,
    tables: [rel.child.name],
  }))),
};

const topPerCategory: QuestionTemplate = {
  id: 'extra/correlated-top-per-category', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => ({
    question: phrase(rng, [
      `For each ${c.label}, which ${t.spec.singular} has the highest ${n.label}? Give the ${c.label} and the ${t.nameColumn!.label}.`,
      `Show, for every ${c.label}, the ${t.spec.singular} with the top ${n.label} in that ${c.label}.`,
    ]),
    query: `SELECT T1.${c.name}, T1.${t.nameColumn!.name} FROM ${t.name} AS T1 WHERE T1.${n.name} = (SELECT MAX(T2.${n.name}) FROM ${t.name} AS T2 WHERE T2.${c.name} = T1.${c.name})`,
    tables: [t.name],
  })))),
};

const rangeWithinCategory: QuestionTemplate = {
  id: 'extra/range-within-category', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    return {
      question: phrase(rng, [
        `What is the difference between the highest and the lowest ${n.label} of ${t.spec.plural} ${categoryClause(c, v)}?`,
        `By how much does the ${n.label} vary among ${t.spec.plural} ${categoryClause(c, v)}, from the smallest to the largest?`,
      ]),
      query: `SELECT MAX(${n.name}) - MIN(${n.name}) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)}`,
      tables: [t.name],
    };
  }))),
};

const percentageInCategory: QuestionTemplate = {
  id: 'extra/percentage-in-category', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.map((c) => {
    const v = rng.choice(view.distinct(t, c));
    return {
      question: phrase(rng, [
        `What percentage of ${t.spec.plural} ${categoryPredicate(c, v)}? Round to one decimal place.`,
        `What share of all ${t.spec.plural}, in percent to one decimal, have ${say(c, v)} as their ${c.label}?`,
      ]),
      query: `SELECT ROUND(100.0 * SUM(CASE WHEN ${c.name} = ${sqlLiteral(v)} THEN 1 ELSE 0 END) / COUNT(*), 1) FROM ${t.name}`,
      tables: [t.name],
    };
  })),
};

const parentsWithoutChildCategory: QuestionTemplate = {
  id: 'extra/not-exists-child-category', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.child.categories.map((c) => {
    const v = rng.choice(view.distinct(rel.child, c));
    return {
      question: phrase(rng, [
        `How many ${rel.parent.spec.plural} have no ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v)}?`,
        `Count the ${rel.parent.spec.plural} for which there is no ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v)}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${rel.parent.name} AS T2 WHERE NOT EXISTS (SELECT 1 FROM ${rel.child.name} AS T1 WHERE T1.${rel.column.name} = T2.${rel.parent.key.name} AND T1.${c.name} = ${sqlLiteral(v)})`,
      tables: [rel.parent.name, rel.child.name],
    };
  })),
};

const categoriesAboveAverageSize: QuestionTemplate = {
  id: 'extra/categories-above-average-size', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.map((c) => {
    const guard = where([notNullGuard(c)]);
    return {
      question: phrase(rng, [
        `Which ${pluralize(c.label)} have more ${t.spec.plural} than the average ${c.label} does?`,
        `List the ${pluralize(c.label)} whose number of ${t.spec.plural} is above the average number per ${c.label}.`,
      ]),
      query: `SELECT ${c.name} FROM ${t.name}${guard} GROUP BY ${c.name} HAVING COUNT(*) > (SELECT COUNT(*) * 1.0 / COUNT(DISTINCT ${c.name}) FROM ${t.name}${guard})`,
      tables: [t.name],
    };
  })),
};

const secondHighest: QuestionTemplate = {
  id: 'extra/second-highest', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.numbers.map((n) => {
    const guard = where([notNullGuard(n)]);
    return {
      question: phrase(rng, [
        `Which ${t.spec.singular} has the second highest ${n.label}?`,
        `Name the ${t.spec.singular} that ranks second by ${n.label}.`,
      ]),
      query: `SELECT ${t.nameColumn!.name} FROM ${t.name}${guard} ORDER BY ${n.name} DESC LIMIT 1 OFFSET 1`,
      tables: [t.name],
      tie: { probe: `SELECT ${n.name} FROM ${t.name}${guard} ORDER BY ${n.name} DESC LIMIT 3`, k: 2 },
    };
  })),
};

const countBusyParents: QuestionTemplate = {
  id: 'extra/count-parents-having', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.relations.map((rel) => {
    const k = rng.intBetween(2, 6);
    return {
      question: phrase(rng, [
        `How many ${rel.parent.spec.plural} have at least ${k} ${rel.child.spec.plural}${asRole(rel)}?`,
        `Count the ${rel.parent.spec.plural} that have ${k} or more ${rel.child.spec.plural}${asRole(rel)}.`,
      ]),
      query: `SELECT COUNT(*) FROM (SELECT ${rel.column.name} FROM ${rel.child.name}${where([notNullGuard(rel.column)])} GROUP BY ${rel.column.name} HAVING COUNT(*) >= ${k})`,
      tables: [rel.child.name],
    };
  }),
};

const averageChildrenPerParent: QuestionTemplate = {
  id: 'extra/average-children-per-parent', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.relations.map((rel) => ({
    question: phrase(rng, [
      `On average, how many ${rel.child.spec.plural}${asRole(rel)} does ${an(rel.parent.spec.singular)} have, counting only ${rel.parent.spec.plural} with at least one?`,
      `What is the mean number of ${rel.child.spec.plural} per ${rel.column.label}, over the ${pluralize(rel.column.label)} that have any?`,
    ]),
    query: `SELECT AVG(cnt) FROM (SELECT COUNT(*) AS cnt FROM ${rel.child.name}${where([notNullGuard(rel.column)])} GROUP BY ${rel.column.name})`,
    tables: [rel.child.name],
  })),
};

const parentsExceptJoined: QuestionTemplate = {
  id: 'extra/except-unused-parents', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => rel.child.categories.map((c) => {
    const v = rng.choice(view.distinct(rel.child, c));
    const name = rel.parent.nameColumn!.name;
    return {
      question: `Which ${rel.parent.spec.plural} do not have any ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v)}? Give their ${pluralize(rel.parent.nameColumn!.label)}.`,
      query: `SELECT ${name} FROM ${rel.parent.name} EXCEPT SELECT T2.${name} FROM ${joinOn(rel)} WHERE T1.${c.name} = ${sqlLiteral(v)}`,
      tables: [rel.parent.name, rel.child.name],
    };
  })),
};

const countUnion: QuestionTemplate = {
  id: 'extra/union-count', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const x = threshold(view.distinct(t, n), rng);
    const name = t.nameColumn!.name;
    return {
      question: `How many ${t.spec.plural} ${categoryPredicate(c, v)}, or have ${an(n.label)} of at least ${say(n, x)}, or both?`,
      query: `SELECT COUNT(*) FROM (SELECT ${name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} UNION SELECT ${name} FROM ${t.name} WHERE ${n.name} >= ${x})`,
      tables: [t.name],
    };
  }))),
};

const averageGap: QuestionTemplate = {
  id: 'extra/average-gap', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.flatMap((n) => {
    const [v1, v2] = sampleSome(rng, view.distinct(t, c), 2);
    if (v1 === undefined || v2 === undefined) return [];
    const avg = (v: typeof v1) => `(SELECT AVG(${n.name}) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)})`;
    return [{
      question: `How much higher is the average ${n.label} of ${t.spec.plural} ${categoryClause(c, v1)} than that of ${t.spec.plural} ${categoryClause(c, v2)}? Answer with a negative number if it is lower.`,
      query: `SELECT ${avg(v1)} - ${avg(v2)}`,
      tables: [t.name],
    }];
  }))),
};

const namesBothConditions: QuestionTemplate = {
  id: 'extra/intersect-names', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const x = threshold(view.distinct(t, n), rng);
    const name = t.nameColumn!.name;
    return {
      question: `Which ${t.spec.plural} both ${categoryPredicate(c, v)} and have ${an(n.label)} of at least ${say(n, x)}? Give their ${pluralize(t.nameColumn!.label)}.`,
      query: `SELECT ${name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} INTERSECT SELECT ${name} FROM ${t.name} WHERE ${n.name} >= ${x}`,
      tables: [t.name],
    };
  }))),
};

const categoriesWithHighButNoLow: QuestionTemplate = {
  id: 'extra/except-categories', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const values = (view.distinct(t, n) as number[]).slice().sort((a, b) => a - b);
    const low = roundThreshold(values[Math.floor(values.length * (0.05 + rng.float() * 0.15))] ?? 0);
    const high = roundThreshold(values[Math.floor(values.length * (0.7 + rng.float() * 0.2))] ?? 0);
    return {
      question: `Which ${pluralize(c.label)} have some ${t.spec.plural} with ${an(n.label)} above ${say(n, high)} but none with ${an(n.label)} below ${say(n, low)}?`,
      query: `SELECT ${c.name} FROM ${t.name} WHERE ${n.name} > ${high} EXCEPT SELECT ${c.name} FROM ${t.name} WHERE ${n.name} < ${low}`,
      tables: [t.name],
    };
  }))),
};

const countIntersect: QuestionTemplate = {
  id: 'extra/intersect-count', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => rel.child.categories.flatMap((c) => {
    const [v1, v2] = sampleSome(rng, view.distinct(rel.child, c), 2);
    if (v1 === undefined || v2 === undefined) return [];
    const part = (v: typeof v1) => `SELECT ${rel.column.name} FROM ${rel.child.name} WHERE ${c.name} = ${sqlLiteral(v)}`;
    return [{
      question: `How many ${pluralize(rel.column.label)} have both ${rel.child.spec.plural}${asRole(rel)} ${categoryClause(c, v1)} and ${rel.child.spec.plural}${asRole(rel)} ${categoryClause(c, v2)}?`,
      query: `SELECT COUNT(*) FROM (${part(v1)} INTERSECT ${part(v2)})`,
      tables: [rel.child.name],
    }];
  })),
};

const parentsWithManyChildrenCorrelated: QuestionTemplate = {
  id: 'extra/correlated-count-parents', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => rel.child.categories.map((c) => {
    const v = rng.choice(view.distinct(rel.child, c));
    const k = rng.intBetween(2, 4);
    return {
      question: `Which ${rel.parent.spec.plural} have at least ${k} ${rel.child.spec.plural}${asRole(rel)} ${categoryClause(c, v)}? Give their ${pluralize(rel.parent.nameColumn!.label)}.`,
      query: `SELECT T2.${rel.parent.nameColumn!.name} FROM ${rel.parent.name} AS T2 WHERE (SELECT COUNT(*) FROM ${rel.child.name} AS T1 WHERE T1.${rel.column.name} = T2.${rel.parent.key.name} AND T1.${c.name} = ${sqlLiteral(v)}) >= ${k}`,
      tables: [rel.parent.name, rel.child.name],
    };
  })),
};

const rangePerCategory: QuestionTemplate = {
  id: 'extra/range-per-category', difficulty: 'extra', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => ({
    question: phrase(rng, [
      `For each ${c.label}, what is the gap between the highest and the lowest ${n.label} of its ${t.spec.plural}?`,
      `Show every ${c.label} with the spread of ${n.label} (maximum minus minimum) among its ${t.spec.plural}.`,
    ]),
    query: `SELECT ${c.name}, MAX(${n.name}) - MIN(${n.name}) FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name}`,
    tables: [t.name],
  })))),
};

/**
 * Every generic extra-hard template.
 *
 * @example
 * ```ts
 * EXTRA_TEMPLATES.map((t) => t.id);
 * ```
 */
export const EXTRA_TEMPLATES: readonly QuestionTemplate[] = [
  parentsWithBothCategories, parentsWithOneCategoryNotOther, namesEitherCondition, countAboveOwnParentAverage,
  topPerCategory, rangeWithinCategory, percentageInCategory, parentsWithoutChildCategory,
  categoriesAboveAverageSize, secondHighest, countBusyParents, averageChildrenPerParent, parentsExceptJoined,
  countUnion, averageGap, namesBothConditions, categoriesWithHighButNoLow, countIntersect,
  parentsWithManyChildrenCorrelated, rangePerCategory,
];
