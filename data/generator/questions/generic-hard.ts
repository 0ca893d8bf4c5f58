/**
 * Hard templates: several joins, HAVING, nested subqueries, or a join combined with grouping
 * and ordering.
 */
import type { DbView, Relation } from './db-view.js';
import { aggregatesFor } from './generic-easy.js';
import { joinOn, joinPath } from './join-sql.js';
import {
  an, asRole, categoryClause, notNullGuard, phrase, pluralize, roundThreshold, sampleSome, say, sqlLiteral, theEntity, threshold, where,
} from './phrasing.js';
import type { QuestionTemplate } from './template.js';

/** Number of children per parent key, for choosing HAVING thresholds that keep a few parents. */
function childCounts(rel: Relation): number[] {
  const counts = new Map<unknown, number>();
  for (const r of rel.child.rows) {
    const k = r[rel.column.name];
    if (k !== null && k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.values()].sort((a, b) => b - a);
}

function named(view: DbView): Relation[] {
  return view.namedRelations();
}

const parentWithMostChildren: QuestionTemplate = {
  id: 'hard/parent-most-children', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => named(view).flatMap((rel) => (['DESC', 'ASC'] as const).map((dir) => {
    const most = dir === 'DESC' ? 'the most' : 'the fewest';
    const group = `FROM ${joinOn(rel)} GROUP BY T1.${rel.column.name}`;
    return {
      question: phrase(rng, [
        `Which ${rel.parent.spec.singular} has ${most} ${rel.child.spec.plural}${asRole(rel)}?`,
        `Among ${rel.parent.spec.plural} with at least one ${rel.child.spec.singular}${asRole(rel)}, which has ${most}? Give the ${rel.parent.nameColumn!.label}.`,
      ]),
      query: `SELECT T2.${rel.parent.nameColumn!.name} ${group} ORDER BY COUNT(*) ${dir} LIMIT 1`,
      tables: [rel.child.name, rel.parent.name],
      tie: { probe: `SELECT COUNT(*) ${group} ORDER BY COUNT(*) ${dir} LIMIT 2`, k: 1 },
    };
  })),
};

const parentsHavingCount: QuestionTemplate = {
  id: 'hard/parents-having-count', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => named(view).flatMap((rel) => {
    const counts = childCounts(rel);
    const k = counts[Math.min(counts.length - 1, rng.intBetween(2, 12))];
    if (k === undefined || k < 2) return [];
    return [{
      question: phrase(rng, [
        `Which ${rel.parent.spec.plural} have at least ${k} ${rel.child.spec.plural}${asRole(rel)}?`,
        `List the ${pluralize(rel.parent.nameColumn!.label)} of ${rel.parent.spec.plural} with ${k} or more ${rel.child.spec.plural}${asRole(rel)}.`,
      ]),
      query: `SELECT T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} GROUP BY T1.${rel.column.name} HAVING COUNT(*) >= ${k}`,
      tables: [rel.child.name, rel.parent.name],
    }];
  }),
};

const parentsWithoutChildren: QuestionTemplate = {
  id: 'hard/parents-without-children', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => named(view).flatMap((rel) => {
    const inner = `SELECT ${rel.column.name} FROM ${rel.child.name}${where([notNullGuard(rel.column)])}`;
    return [
      {
        question: phrase(rng, [
          `Which ${rel.parent.spec.plural} have no ${rel.child.spec.plural}${asRole(rel)}?`,
          `List the ${pluralize(rel.parent.nameColumn!.label)} of ${rel.parent.spec.plural} that never appear as the ${rel.column.label} of any ${rel.child.spec.singular}.`,
        ]),
        query: `SELECT ${rel.parent.nameColumn!.name} FROM ${rel.parent.name} WHERE ${rel.parent.key.name} NOT IN (${inner})`,
        tables: [rel.parent.name, rel.child.name],
      },
      {
        question: `How many ${rel.parent.spec.plural} have no ${rel.child.spec.plural}${asRole(rel)} at all?`,
        query: `SELECT COUNT(*) FROM ${rel.parent.name} WHERE ${rel.parent.key.name} NOT IN (${inner})`,
        tables: [rel.parent.name, rel.child.name],
      },
    ];
  }),
};

const parentsWithChildCategory: QuestionTemplate = {
  id: 'hard/parents-with-child-category', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => named(view).flatMap((rel) => rel.child.categories.map((c) => {
    const v = rng.choice(view.distinct(rel.child, c));
    return {
      question: phrase(rng, [
        `Which ${rel.parent.spec.plural} have at least one ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v)}?`,
        `List the ${pluralize(rel.parent.nameColumn!.label)} of ${rel.parent.spec.plural} that have some ${rel.child.spec.singular}${asRole(rel)} ${categoryClause(c, v)}.`,
      ]),
      query: `SELECT ${rel.parent.nameColumn!.name} FROM ${rel.parent.name} WHERE ${rel.parent.key.name} IN (SELECT ${rel.column.name} FROM ${rel.child.name} WHERE ${c.name} = ${sqlLiteral(v)})`,
      tables: [rel.parent.name, rel.child.name],
    };
  })),
};

const countAboveAverage: QuestionTemplate = {
  id: 'hard/count-above-average', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => view.tables.flatMap((t) => t.numbers.map((n) => {
    const above = rng.float() < 0.6;
    return {
      question: phrase(rng, [
        `How many ${t.spec.plural} have ${an(n.label)} ${above ? 'above' : 'below'} the average?`,
        `Count the ${t.spec.plural} whose ${n.label} is ${above ? 'higher' : 'lower'} than the average ${n.label} of all ${t.spec.plural}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${n.name} ${above ? '>' : '<'} (SELECT AVG(${n.name}) FROM ${t.name})`,
      tables: [t.name],
    };
  })),
};

const argExtremeBySubquery: QuestionTemplate = {
  id: 'hard/arg-extreme-subquery', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const max = rng.float() < 0.6;
    return {
      question: `Among the ${t.spec.plural} ${categoryClause(c, v)}, which ones have the ${max ? 'highest' : 'lowest'} ${n.label}? List every one in case of a tie.`,
      query: `SELECT ${t.nameColumn!.name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} AND ${n.name} = (SELECT ${max ? 'MAX' : 'MIN'}(${n.name}) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)})`,
      tables: [t.name],
    };
  }))),
};

const countThroughTwoJoins: QuestionTemplate = {
  id: 'hard/two-join-count', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => view.paths().flatMap((path) => sampleSome(rng, path.second.parent.rows, 2).map((row) => {
    const top = path.second.parent;
    const v = row[top.nameColumn!.name]!;
    return {
      question: phrase(rng, [
        `How many ${path.first.child.spec.plural} are there for ${path.first.parent.spec.plural} whose ${path.second.column.label} is ${say(top.nameColumn!, v)}?`,
        `Count the ${path.first.child.spec.plural} that belong to ${an(path.first.parent.spec.singular)} linked to ${theEntity(top, v)}${asRole(path.second)}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${joinPath(path)} WHERE T3.${top.nameColumn!.name} = ${sqlLiteral(v)}`,
      tables: [path.first.child.name, path.first.parent.name, top.name],
    };
  })),
};

const aggregateThroughTwoJoins: QuestionTemplate = {
  id: 'hard/two-join-aggregate', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => view.paths().flatMap((path) => path.first.child.numbers.map((n) => {
    const top = path.second.parent;
    const v = rng.choice(top.rows)[top.nameColumn!.name]!;
    const a = rng.choice(aggregatesFor(n));
    return {
      question: `What is the ${rng.choice(a.words)} ${n.label} of ${path.first.child.spec.plural} for ${path.first.parent.spec.plural} linked to ${theEntity(top, v)}${asRole(path.second)}?`,
      query: `SELECT ${a.fn}(T1.${n.name}) FROM ${joinPath(path)} WHERE T3.${top.nameColumn!.name} = ${sqlLiteral(v)}`,
      tables: [path.first.child.name, path.first.parent.name, top.name],
    };
  })),
};

const categoriesHavingCount: QuestionTemplate = {
  id: 'hard/categories-having-count', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => {
    const counts = new Map<unknown, number>();
    for (const r of t.rows) if (r[c.name] !== null) counts.set(r[c.name], (counts.get(r[c.name]) ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    const k = sorted[Math.min(sorted.length - 1, rng.intBetween(1, 4))];
    if (k === undefined) return [];
    return [{
      question: phrase(rng, [
        `Which ${pluralize(c.label)} have more than ${k} ${t.spec.plural}?`,
        `List the ${pluralize(c.label)} shared by more than ${k} ${t.spec.plural}.`,
      ]),
      query: `SELECT ${c.name} FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name} HAVING COUNT(*) > ${k}`,
      tables: [t.name],
    }];
  })),
};

const categoriesHavingAverage: QuestionTemplate = {
  id: 'hard/categories-having-average', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const x = threshold(view.distinct(t, n), rng);
    return {
      question: `Which ${pluralize(c.label)} have an average ${n.label} above ${say(n, x)} among their ${t.spec.plural}?`,
      query: `SELECT ${c.name} FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name} HAVING AVG(${n.name}) > ${x}`,
      tables: [t.name],
    };
  }))),
};

const parentCategoryBestChildAverage: QuestionTemplate = {
  id: 'hard/join-category-best-average', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.parent.categories.flatMap((c) => rel.child.numbers.map((n) => {
    const group = `FROM ${joinOn(rel)}${where([notNullGuard(c, 'T2')])} GROUP BY T2.${c.name}`;
    return {
      question: phrase(rng, [
        `Which ${c.label} of ${rel.parent.spec.plural} has the highest average ${n.label} of ${rel.child.spec.plural}?`,
        `Grouping ${rel.child.spec.plural} by the ${c.label} of their ${rel.column.label}, which group has the highest average ${n.label}?`,
      ]),
      query: `SELECT T2.${c.name} ${group} ORDER BY AVG(T1.${n.name}) DESC LIMIT 1`,
      tables: [rel.child.name, rel.parent.name],
      tie: { probe: `SELECT AVG(T1.${n.name}) ${group} ORDER BY AVG(T1.${n.name}) DESC LIMIT 2`, k: 1 },
    };
  }))),
};

const countPerGrandparent: QuestionTemplate = {
  id: 'hard/two-join-count-per-top', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => view.paths().filter((p) => p.second.parent.rows.length <= 20).map((path) => {
    const top = path.second.parent;
    return {
      question: phrase(rng, [
        `For each ${top.spec.singular}, how many ${path.first.child.spec.plural} are there across its ${path.first.parent.spec.plural}?`,
        `Give every ${top.spec.singular}'s ${top.nameColumn!.label} with the number of ${path.first.child.spec.plural} linked to it${asRole(path.second)} through ${path.first.parent.spec.plural}.`,
      ]),
      query: `SELECT T3.${top.nameColumn!.name}, COUNT(*) FROM ${joinPath(path)} GROUP BY T3.${top.key.name}`,
      tables: [path.first.child.name, path.first.parent.name, top.name],
    };
  }),
};

const parentWithLargestTotal: QuestionTemplate = {
  id: 'hard/parent-largest-total', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => named(view).flatMap((rel) => rel.child.numbers.filter((n) => n.summable !== false).map((n) => {
    const group = `FROM ${joinOn(rel)} GROUP BY T1.${rel.column.name}`;
    return {
      question: phrase(rng, [
        `Which ${rel.parent.spec.singular} has the largest total ${n.label} across its ${rel.child.spec.plural}${asRole(rel)}?`,
        `Summing the ${n.label} of their ${rel.child.spec.plural}${asRole(rel)}, which ${rel.parent.spec.singular} comes out on top?`,
      ]),
      query: `SELECT T2.${rel.parent.nameColumn!.name} ${group} ORDER BY SUM(T1.${n.name}) DESC LIMIT 1`,
      tables: [rel.child.name, rel.parent.name],
      tie: { probe: `SELECT SUM(T1.${n.name}) ${group} ORDER BY SUM(T1.${n.name}) DESC LIMIT 2`, k: 1 },
    };
  })),
};

const childNamesWithParentCategoryAndNumber: QuestionTemplate = {
  id: 'hard/join-names-two-filters', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => view.relations.filter((r) => r.child.nameColumn).flatMap((rel) =>
    rel.parent.categories.flatMap((c) => rel.child.numbers.map((n) => {
      const v = rng.choice(view.distinct(rel.parent, c));
      const values = (view.distinct(rel.child, n) as number[]).slice().sort((a, b) => b - a);
      const x = roundThreshold(values[Math.min(values.length - 1, rng.intBetween(10, 40))] ?? 0);
      return {
        question: `List the ${pluralize(rel.child.nameColumn!.label)} of ${rel.child.spec.plural} with ${an(n.label)} above ${say(n, x)} ${rel.column.label === rel.parent.spec.singular ? 'that belong to' : `whose ${rel.column.label} is`} ${an(rel.parent.spec.singular)} ${categoryClause(c, v)}.`,
        query: `SELECT T1.${rel.child.nameColumn!.name} FROM ${joinOn(rel)} WHERE T2.${c.name} = ${sqlLiteral(v)} AND T1.${n.name} > ${x}`,
        tables: [rel.child.name, rel.parent.name],
      };
    }))),
};

const countAboveCategoryAverage: QuestionTemplate = {
  id: 'hard/count-above-category-average', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    return {
      question: `Among ${t.spec.plural} ${categoryClause(c, v)}, how many have ${an(n.label)} above the average for that group?`,
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} AND ${n.name} > (SELECT AVG(${n.name}) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)})`,
      tables: [t.name],
    };
  }))),
};

const topParentsByChildren: QuestionTemplate = {
  id: 'hard/top-parents-by-children', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => named(view).map((rel) => {
    const k = rng.intBetween(3, 5);
    const group = `FROM ${joinOn(rel)} GROUP BY T1.${rel.column.name}`;
    return {
      question: `Which ${k} ${rel.parent.spec.plural} have the most ${rel.child.spec.plural}${asRole(rel)}? Show each ${rel.parent.nameColumn!.label} with its count, most first.`,
      query: `SELECT T2.${rel.parent.nameColumn!.name}, COUNT(*) ${group} ORDER BY COUNT(*) DESC LIMIT ${k}`,
      tables: [rel.child.name, rel.parent.name],
      tie: { probe: `SELECT COUNT(*) ${group} ORDER BY COUNT(*) DESC LIMIT ${k + 1}`, k },
    };
  }),
};

const namesAboveCategoryAverage: QuestionTemplate = {
  id: 'hard/names-above-category-average', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    return {
      question: `Which ${t.spec.plural} ${categoryClause(c, v)} have ${an(n.label)} above the overall average of all ${t.spec.plural}? Give their ${pluralize(t.nameColumn!.label)}.`,
      query: `SELECT ${t.nameColumn!.name} FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(v)} AND ${n.name} > (SELECT AVG(${n.name}) FROM ${t.name})`,
      tables: [t.name],
    };
  }))),
};

const parentsHavingAverage: QuestionTemplate = {
  id: 'hard/parents-having-average', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => named(view).flatMap((rel) => rel.child.numbers.map((n) => {
    const values = (view.distinct(rel.child, n) as number[]).slice().sort((a, b) => a - b);
    const x = roundThreshold(values[Math.floor(values.length * (0.6 + rng.float() * 0.2))] ?? 0);
    return {
      question: `Which ${rel.parent.spec.plural} have an average ${n.label} of their ${rel.child.spec.plural}${asRole(rel)} above ${say(n, x)}?`,
      query: `SELECT T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} GROUP BY T1.${rel.column.name} HAVING AVG(T1.${n.name}) > ${x}`,
      tables: [rel.child.name, rel.parent.name],
    };
  })),
};

const topNamesThroughTwoJoins: QuestionTemplate = {
  id: 'hard/two-join-distinct-names', difficulty: 'hard', perDatabase: 2,
  drafts: (view, rng) => view.paths().flatMap((path) => path.first.child.categories.map((c) => {
    const top = path.second.parent;
    const v = rng.choice(view.distinct(path.first.child, c));
    return {
      question: `Which ${top.spec.plural} are linked${asRole(path.second)}, through their ${path.first.parent.spec.plural}, to ${path.first.child.spec.plural} ${categoryClause(c, v)}? List each once.`,
      query: `SELECT DISTINCT T3.${top.nameColumn!.name} FROM ${joinPath(path)} WHERE T1.${c.name} = ${sqlLiteral(v)}`,
      tables: [path.first.child.name, path.first.parent.name, top.name],
    };
  })),
};

const parentOfExtremeChild: QuestionTemplate = {
  id: 'hard/parent-of-extreme-child', difficulty: 'hard', perDatabase: 3,
  drafts: (view, rng) => named(view).flatMap((rel) => rel.child.numbers.map((n) => {
    const max = rng.float() < 0.7;
    const child = `the ${rel.child.spec.singular} with the ${max ? 'highest' : 'lowest'} ${n.label}`;
    const ask = rel.column.label === rel.parent.spec.singular
      ? `Which ${rel.parent.spec.singular} does ${child} belong to?`
      : `Which ${rel.parent.spec.singular} is the ${rel.column.label} of ${child}?`;
    return {
      question: `${ask} List all of them if several ${rel.child.spec.plural} tie.`,
      query: `SELECT DISTINCT T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} WHERE T1.${n.name} = (SELECT ${max ? 'MAX' : 'MIN'}(${n.name}) FROM ${rel.child.name})`,
      tables: [rel.child.name, rel.parent.name],
    };
  })),
};

/**
 * Every generic hard template.
 *
 * @example
 * ```ts
 * HARD_TEMPLATES.map((t) => t.id);
 * ```
 */
export const HARD_TEMPLATES: readonly QuestionTemplate[] = [
  parentWithMostChildren, parentsHavingCount, parentsWithoutChildren, parentsWithChildCategory,
  countAboveAverage, argExtremeBySubquery, countThroughTwoJoins, aggregateThroughTwoJoins,
  categoriesHavingCount, categoriesHavingAverage, parentCategoryBestChildAverage, countPerGrandparent,
  parentWithLargestTotal, childNamesWithParentCategoryAndNumber, countAboveCategoryAverage, topParentsByChildren,
  namesAboveCategoryAverage, parentsHavingAverage, topNamesThroughTwoJoins, parentOfExtremeChild,
];
