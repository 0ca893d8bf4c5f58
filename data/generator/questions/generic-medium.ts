/**
 * Medium templates: grouping, ordering with a limit, or one join between a table and the table
 * it references.
 */
import type { ColumnSpec } from '../schema.js';
import type { DbView, TableView } from './db-view.js';
import { joinOn } from './join-sql.js';
import { aggregatesFor } from './generic-easy.js';
import {
  an, asRole, categoryClause, notNullGuard, parentClause, phrase, pluralize, sampleSome, say, sqlLiteral, theEntity, threshold, where,
} from './phrasing.js';
import type { QuestionTemplate } from './template.js';

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'] as const;


function categoryPairs(view: DbView): { t: TableView; c: ColumnSpec }[] {
  return view.tables.flatMap((t) => t.categories.map((c) => ({ t, c })));
}

const countPerCategory: QuestionTemplate = {
  id: 'medium/count-per-category', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => categoryPairs(view).map(({ t, c }) => ({
    question: phrase(rng, [
      `How many ${t.spec.plural} are there for each ${c.label}?`,
      `For each ${c.label}, count the ${t.spec.plural}.`,
      `Show the number of ${t.spec.plural} per ${c.label}.`,
    ]),
    query: `SELECT ${c.name}, COUNT(*) FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name}`,
    tables: [t.name],
  })),
};

const aggregatePerCategory: QuestionTemplate = {
  id: 'medium/aggregate-per-category', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const a = rng.choice(aggregatesFor(n));
    return {
      question: phrase(rng, [
        `What is the ${rng.choice(a.words)} ${n.label} of ${t.spec.plural} for each ${c.label}?`,
        `For every ${c.label}, give the ${rng.choice(a.words)} ${n.label} of its ${t.spec.plural}.`,
      ]),
      query: `SELECT ${c.name}, ${a.fn}(${n.name}) FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name}`,
      tables: [t.name],
    };
  }))),
};

const topOne: QuestionTemplate = {
  id: 'medium/top-one', difficulty: 'medium', perDatabase: 5,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => [...t.numbers, ...t.dates].flatMap((n) => {
    const name = t.nameColumn!;
    const guard = where([notNullGuard(n)]);
    const isDate = n.role === 'date';
    return (['DESC', 'ASC'] as const).map((dir) => {
      const word = isDate ? (dir === 'DESC' ? 'latest' : 'earliest') : (dir === 'DESC' ? rng.choice(['highest', 'largest']) : rng.choice(['lowest', 'smallest']));
      return {
        question: phrase(rng, [
          `Which ${t.spec.singular} has the ${word} ${n.label}?`,
          `What is the ${name.label} of the ${t.spec.singular} with the ${word} ${n.label}?`,
        ]),
        query: `SELECT ${name.name} FROM ${t.name}${guard} ORDER BY ${n.name} ${dir} LIMIT 1`,
        tables: [t.name],
        tie: { probe: `SELECT ${n.name} FROM ${t.name}${guard} ORDER BY ${n.name} ${dir} LIMIT 2`, k: 1 },
      };
    });
  })),
};

const topK: QuestionTemplate = {
  id: 'medium/top-k', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.numbers.map((n) => {
    const k = rng.intBetween(3, 5);
    const dir = rng.float() < 0.7 ? 'DESC' : 'ASC';
    const guard = where([notNullGuard(n)]);
    const order = dir === 'DESC' ? 'from highest to lowest' : 'from lowest to highest';
    const extreme = dir === 'DESC' ? 'highest' : 'lowest';
    return {
      question: phrase(rng, [
        `List the ${NUMBER_WORDS[k]} ${t.spec.plural} with the ${extreme} ${n.label}, ${order}.`,
        `Give the ${pluralize(t.nameColumn!.label)} of the ${k} ${t.spec.plural} with the ${extreme} ${n.label}, ordered ${order}.`,
      ]),
      query: `SELECT ${t.nameColumn!.name} FROM ${t.name}${guard} ORDER BY ${n.name} ${dir} LIMIT ${k}`,
      tables: [t.name],
      tie: { probe: `SELECT ${n.name} FROM ${t.name}${guard} ORDER BY ${n.name} ${dir} LIMIT ${k + 1}`, k },
    };
  })),
};

const mostCommonCategory: QuestionTemplate = {
  id: 'medium/most-common-category', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => categoryPairs(view).flatMap(({ t, c }) => {
    const guard = where([notNullGuard(c)]);
    return [
      {
        question: phrase(rng, [
          `Which ${c.label} is the most common among ${t.spec.plural}?`,
          `What ${c.label} do the most ${t.spec.plural} have?`,
        ]),
        query: `SELECT ${c.name} FROM ${t.name}${guard} GROUP BY ${c.name} ORDER BY COUNT(*) DESC LIMIT 1`,
        tables: [t.name],
        tie: { probe: `SELECT COUNT(*) FROM ${t.name}${guard} GROUP BY ${c.name} ORDER BY COUNT(*) DESC LIMIT 2`, k: 1 },
      },
      {
        question: `Which ${c.label} is the least common among ${t.spec.plural}?`,
        query: `SELECT ${c.name} FROM ${t.name}${guard} GROUP BY ${c.name} ORDER BY COUNT(*) ASC LIMIT 1`,
        tables: [t.name],
        tie: { probe: `SELECT COUNT(*) FROM ${t.name}${guard} GROUP BY ${c.name} ORDER BY COUNT(*) ASC LIMIT 2`, k: 1 },
      },
    ];
  }),
};

const countChildrenOfNamed: QuestionTemplate = {
  id: 'medium/join-count-for-named', difficulty: 'medium', perDatabase: 5,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => sampleSome(rng, rel.parent.rows, 3).map((row) => {
    const v = row[rel.parent.nameColumn!.name]!;
    return {
      question: phrase(rng, [
        `How many ${rel.child.spec.plural} are there ${parentClause(rel, v)}?`,
        `Count the ${rel.child.spec.plural} ${parentClause(rel, v)}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${joinOn(rel)} WHERE T2.${rel.parent.nameColumn!.name} = ${sqlLiteral(v)}`,
      tables: [rel.child.name, rel.parent.name],
    };
  })),
};

const childNamesOfNamed: QuestionTemplate = {
  id: 'medium/join-names-for-named', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => view.namedRelations().filter((r) => r.child.nameColumn).flatMap((rel) =>
    sampleSome(rng, rel.parent.rows, 3).map((row) => {
      const v = row[rel.parent.nameColumn!.name]!;
      return {
        question: phrase(rng, [
          `List the ${pluralize(rel.child.nameColumn!.label)} of the ${rel.child.spec.plural} ${parentClause(rel, v)}.`,
          `Which ${rel.child.spec.plural} are there ${parentClause(rel, v)}? Give their ${pluralize(rel.child.nameColumn!.label)}.`,
        ]),
        query: `SELECT T1.${rel.child.nameColumn!.name} FROM ${joinOn(rel)} WHERE T2.${rel.parent.nameColumn!.name} = ${sqlLiteral(v)}`,
        tables: [rel.child.name, rel.parent.name],
      };
    })),
};

const countChildrenByParentCategory: QuestionTemplate = {
  id: 'medium/join-count-parent-category', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.parent.categories.flatMap((c) =>
    sampleSome(rng, view.distinct(rel.parent, c), 2).map((v) => ({
      question: rel.column.label === rel.parent.spec.singular
        ? phrase(rng, [
          `How many ${rel.child.spec.plural} are linked to ${rel.parent.spec.plural} ${categoryClause(c, v)}?`,
          `Count the ${rel.child.spec.plural} that belong to ${rel.parent.spec.plural} ${categoryClause(c, v)}.`,
        ])
        : `How many ${rel.child.spec.plural} have ${an(rel.column.label)} that is ${an(rel.parent.spec.singular)} ${categoryClause(c, v)}?`,
      query: `SELECT COUNT(*) FROM ${joinOn(rel)} WHERE T2.${c.name} = ${sqlLiteral(v)}`,
      tables: [rel.child.name, rel.parent.name],
    })))),
};

const aggregateChildrenOfNamed: QuestionTemplate = {
  id: 'medium/join-aggregate-for-named', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => rel.child.numbers.flatMap((n) =>
    sampleSome(rng, rel.parent.rows, 2).map((row) => {
      const v = row[rel.parent.nameColumn!.name]!;
      const a = rng.choice(aggregatesFor(n));
      return {
        question: phrase(rng, [
          `What is the ${rng.choice(a.words)} ${n.label} of the ${rel.child.spec.plural} ${parentClause(rel, v)}?`,
          `Considering the ${rel.child.spec.plural} ${parentClause(rel, v)}, what is their ${rng.choice(a.words)} ${n.label}?`,
        ]),
        query: `SELECT ${a.fn}(T1.${n.name}) FROM ${joinOn(rel)} WHERE T2.${rel.parent.nameColumn!.name} = ${sqlLiteral(v)}`,
        tables: [rel.child.name, rel.parent.name],
      };
    }))),
};

const countPerYear: QuestionTemplate = {
  id: 'medium/count-per-year', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.dates.map((d) => ({
    question: phrase(rng, [
      `How many ${t.spec.plural} are there for each year of ${d.label}?`,
      `Break down the number of ${t.spec.plural} by the year of their ${d.label}.`,
    ]),
    query: `SELECT strftime('%Y', ${d.name}), COUNT(*) FROM ${t.name}${where([notNullGuard(d)])} GROUP BY strftime('%Y', ${d.name})`,
    tables: [t.name],
  }))),
};

const countChildrenPerParentCategory: QuestionTemplate = {
  id: 'medium/join-count-per-parent-category', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.parent.categories.map((c) => ({
    question: phrase(rng, [
      `For each ${c.label} of ${rel.parent.spec.plural}, how many ${rel.child.spec.plural} are there?`,
      `Count the ${rel.child.spec.plural} grouped by the ${c.label} of their ${rel.column.label}.`,
    ]),
    query: `SELECT T2.${c.name}, COUNT(*) FROM ${joinOn(rel)}${where([notNullGuard(c, 'T2')])} GROUP BY T2.${c.name}`,
    tables: [rel.child.name, rel.parent.name],
  }))),
};

const parentOfNamedChild: QuestionTemplate = {
  id: 'medium/join-parent-of-named', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => view.namedRelations().filter((r) => r.child.nameColumn).flatMap((rel) =>
    sampleSome(rng, rel.child.rows, 2).map((row) => {
      const v = row[rel.child.nameColumn!.name]!;
      return {
        question: phrase(rng, [
          `What is the ${rel.column.label} of ${theEntity(rel.child, v)}? Give the ${rel.parent.nameColumn!.label}.`,
          rel.column.label === rel.parent.spec.singular
            ? `Which ${rel.parent.spec.singular} is ${theEntity(rel.child, v)} linked to?`
            : `Which ${rel.parent.spec.singular} is the ${rel.column.label} of ${theEntity(rel.child, v)}?`,
        ]),
        query: `SELECT T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} WHERE T1.${rel.child.nameColumn!.name} = ${sqlLiteral(v)}`,
        tables: [rel.child.name, rel.parent.name],
      };
    })),
};

const countCategoryInYear: QuestionTemplate = {
  id: 'medium/count-category-in-year', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.dates.map((d) => {
    const row = rng.choice(t.rows.filter((r) => r[c.name] !== null && r[d.name] !== null));
    if (!row) return undefined;
    const year = String(row[d.name]).slice(0, 4);
    return {
      question: phrase(rng, [
        `How many ${t.spec.plural} ${categoryClause(c, row[c.name]!)} have ${an(d.label)} in ${year}?`,
        `Count the ${t.spec.plural} ${categoryClause(c, row[c.name]!)} whose ${d.label} falls in ${year}.`,
      ]),
      query: `SELECT COUNT(*) FROM ${t.name} WHERE ${c.name} = ${sqlLiteral(row[c.name]!)} AND strftime('%Y', ${d.name}) = '${year}'`,
      tables: [t.name],
    };
  }).filter((x) => x !== undefined))),
};

const categoryWithHighestAverage: QuestionTemplate = {
  id: 'medium/category-highest-average', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const dir = rng.float() < 0.6 ? 'DESC' : 'ASC';
    const guard = where([notNullGuard(c)]);
    return {
      question: `Which ${c.label} has the ${dir === 'DESC' ? 'highest' : 'lowest'} average ${n.label} among ${t.spec.plural}?`,
      query: `SELECT ${c.name} FROM ${t.name}${guard} GROUP BY ${c.name} ORDER BY AVG(${n.name}) ${dir} LIMIT 1`,
      tables: [t.name],
      tie: { probe: `SELECT AVG(${n.name}) FROM ${t.name}${guard} GROUP BY ${c.name} ORDER BY AVG(${n.name}) ${dir} LIMIT 2`, k: 1 },
    };
  }))),
};

const distinctParentsWithCategory: QuestionTemplate = {
  id: 'medium/count-distinct-parents', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.child.categories.map((c) => {
    const v = rng.choice(view.distinct(rel.child, c));
    return {
      question: phrase(rng, [
        `How many different ${pluralize(rel.column.label)} have at least one ${rel.child.spec.singular} ${categoryClause(c, v)}?`,
        `Across ${rel.child.spec.plural} ${categoryClause(c, v)}, how many distinct ${pluralize(rel.column.label)} appear?`,
      ]),
      query: `SELECT COUNT(DISTINCT ${rel.column.name}) FROM ${rel.child.name} WHERE ${c.name} = ${sqlLiteral(v)}`,
      tables: [rel.child.name],
    };
  })),
};

const countAboveThresholdForNamed: QuestionTemplate = {
  id: 'medium/join-count-named-compare', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => rel.child.numbers.map((n) => {
    const row = rng.choice(rel.parent.rows);
    const v = row[rel.parent.nameColumn!.name]!;
    const x = threshold(view.distinct(rel.child, n), rng);
    return {
      question: `How many ${rel.child.spec.plural} ${parentClause(rel, v)} have ${an(n.label)} above ${say(n, x)}?`,
      query: `SELECT COUNT(*) FROM ${joinOn(rel)} WHERE T2.${rel.parent.nameColumn!.name} = ${sqlLiteral(v)} AND T1.${n.name} > ${x}`,
      tables: [rel.child.name, rel.parent.name],
    };
  })),
};

const countPerCategorySorted: QuestionTemplate = {
  id: 'medium/count-per-category-sorted', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => categoryPairs(view).map(({ t, c }) => ({
    question: phrase(rng, [
      `List each ${c.label} with its number of ${t.spec.plural}, from the most to the fewest.`,
      `Rank the ${pluralize(c.label)} by how many ${t.spec.plural} they have, largest first, showing the counts.`,
    ]),
    query: `SELECT ${c.name}, COUNT(*) FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name} ORDER BY COUNT(*) DESC`,
    tables: [t.name],
    tie: { probe: `SELECT COUNT(*) FROM ${t.name}${where([notNullGuard(c)])} GROUP BY ${c.name} ORDER BY COUNT(*) DESC`, k: 20 },
  })),
};

const countPerCategoryFiltered: QuestionTemplate = {
  id: 'medium/count-per-category-filtered', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const x = threshold(view.distinct(t, n), rng);
    return {
      question: `For each ${c.label}, how many ${t.spec.plural} have ${an(n.label)} above ${say(n, x)}?`,
      query: `SELECT ${c.name}, COUNT(*) FROM ${t.name} WHERE ${n.name} > ${x}${notNullGuard(c) ? ` AND ${notNullGuard(c)}` : ''} GROUP BY ${c.name}`,
      tables: [t.name],
    };
  }))),
};

const countPerSmallParent: QuestionTemplate = {
  id: 'medium/join-count-per-parent', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.namedRelations().filter((r) => r.parent.rows.length <= 20).map((rel) => ({
    question: phrase(rng, [
      `How many ${rel.child.spec.plural}${asRole(rel)} does each ${rel.parent.spec.singular} have? Give the ${rel.parent.nameColumn!.label} and the count.`,
      `For every ${rel.parent.spec.singular}, show its ${rel.parent.nameColumn!.label} and the number of its ${rel.child.spec.plural}${asRole(rel)}.`,
    ]),
    query: `SELECT T2.${rel.parent.nameColumn!.name}, COUNT(*) FROM ${joinOn(rel)} GROUP BY T1.${rel.column.name}`,
    tables: [rel.child.name, rel.parent.name],
  })),
};

const topKWithValues: QuestionTemplate = {
  id: 'medium/top-k-with-values', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.numbers.map((n) => {
    const k = rng.intBetween(3, 5);
    const guard = where([notNullGuard(n)]);
    return {
      question: `Show the ${NUMBER_WORDS[k]} ${t.spec.plural} with the highest ${n.label} together with that ${n.label}, highest first.`,
      query: `SELECT ${t.nameColumn!.name}, ${n.name} FROM ${t.name}${guard} ORDER BY ${n.name} DESC LIMIT ${k}`,
      tables: [t.name],
      tie: { probe: `SELECT ${n.name} FROM ${t.name}${guard} ORDER BY ${n.name} DESC LIMIT ${k + 1}`, k },
    };
  })),
};

const averageChildPerParentCategory: QuestionTemplate = {
  id: 'medium/join-average-per-parent-category', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.parent.categories.flatMap((c) => rel.child.numbers.map((n) => ({
    question: phrase(rng, [
      `What is the average ${n.label} of ${rel.child.spec.plural} for each ${c.label} of their ${rel.column.label}?`,
      `Group the ${rel.child.spec.plural} by the ${c.label} of their ${rel.column.label} and give the average ${n.label} of each group.`,
    ]),
    query: `SELECT T2.${c.name}, AVG(T1.${n.name}) FROM ${joinOn(rel)}${where([notNullGuard(c, 'T2')])} GROUP BY T2.${c.name}`,
    tables: [rel.child.name, rel.parent.name],
  })))),
};

const countChildParentAndChildCategory: QuestionTemplate = {
  id: 'medium/join-count-two-categories', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.parent.categories.flatMap((pc) => rel.child.categories.map((cc) => {
    const pv = rng.choice(view.distinct(rel.parent, pc));
    const cv = rng.choice(view.distinct(rel.child, cc));
    return {
      question: `How many ${rel.child.spec.plural} ${categoryClause(cc, cv)} belong to ${rel.parent.spec.plural} ${categoryClause(pc, pv)}?`,
      query: `SELECT COUNT(*) FROM ${joinOn(rel)} WHERE T2.${pc.name} = ${sqlLiteral(pv)} AND T1.${cc.name} = ${sqlLiteral(cv)}`,
      tables: [rel.child.name, rel.parent.name],
    };
  }))),
};

const averagePerYear: QuestionTemplate = {
  id: 'medium/average-per-year', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.dates.flatMap((d) => t.numbers.map((n) => ({
    question: phrase(rng, [
      `What is the average ${n.label} of ${t.spec.plural} in each year, by ${d.label}?`,
      `For each year of ${d.label}, give the average ${n.label} of the ${t.spec.plural}.`,
    ]),
    query: `SELECT strftime('%Y', ${d.name}), AVG(${n.name}) FROM ${t.name}${where([notNullGuard(d)])} GROUP BY strftime('%Y', ${d.name})`,
    tables: [t.name],
  })))),
};

const topInCategory: QuestionTemplate = {
  id: 'medium/top-in-category', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.tables.filter((t) => t.nameColumn).flatMap((t) => t.categories.flatMap((c) => t.numbers.map((n) => {
    const v = rng.choice(view.distinct(t, c));
    const dir = rng.float() < 0.6 ? 'DESC' : 'ASC';
    const filter = `WHERE ${c.name} = ${sqlLiteral(v)}${n.nullable ? ` AND ${n.name} IS NOT NULL` : ''}`;
    return {
      question: `Among the ${t.spec.plural} ${categoryClause(c, v)}, which one has the ${dir === 'DESC' ? 'highest' : 'lowest'} ${n.label}?`,
      query: `SELECT ${t.nameColumn!.name} FROM ${t.name} ${filter} ORDER BY ${n.name} ${dir} LIMIT 1`,
      tables: [t.name],
      tie: { probe: `SELECT ${n.name} FROM ${t.name} ${filter} ORDER BY ${n.name} ${dir} LIMIT 2`, k: 1 },
    };
  }))),
};

const topChildOfNamed: QuestionTemplate = {
  id: 'medium/join-top-child-of-named', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.namedRelations().filter((r) => r.child.nameColumn).flatMap((rel) => rel.child.numbers.map((n) => {
    const v = rng.choice(rel.parent.rows)[rel.parent.nameColumn!.name]!;
    const filter = `WHERE T2.${rel.parent.nameColumn!.name} = ${sqlLiteral(v)}${n.nullable ? ` AND T1.${n.name} IS NOT NULL` : ''}`;
    return {
      question: `Of the ${rel.child.spec.plural} ${parentClause(rel, v)}, which has the highest ${n.label}?`,
      query: `SELECT T1.${rel.child.nameColumn!.name} FROM ${joinOn(rel)} ${filter} ORDER BY T1.${n.name} DESC LIMIT 1`,
      tables: [rel.child.name, rel.parent.name],
      tie: { probe: `SELECT T1.${n.name} FROM ${joinOn(rel)} ${filter} ORDER BY T1.${n.name} DESC LIMIT 2`, k: 1 },
    };
  })),
};

const countPerCategoryInYear: QuestionTemplate = {
  id: 'medium/count-per-category-in-year', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.tables.flatMap((t) => t.categories.flatMap((c) => t.dates.map((d) => {
    const year = String(rng.choice(view.distinct(t, d))).slice(0, 4);
    return {
      question: `For each ${c.label}, how many ${t.spec.plural} have ${an(d.label)} in ${year}?`,
      query: `SELECT ${c.name}, COUNT(*) FROM ${t.name} WHERE strftime('%Y', ${d.name}) = '${year}'${c.nullable ? ` AND ${c.name} IS NOT NULL` : ''} GROUP BY ${c.name}`,
      tables: [t.name],
    };
  }))),
};

const countForNamedInYear: QuestionTemplate = {
  id: 'medium/join-count-named-in-year', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.namedRelations().flatMap((rel) => rel.child.dates.map((d) => {
    const row = rng.choice(rel.child.rows);
    const parentName = rel.parent.rows.find((p) => p[rel.parent.key.name] === row[rel.column.name])?.[rel.parent.nameColumn!.name];
    if (parentName === undefined || row[d.name] === null) return undefined;
    const year = String(row[d.name]).slice(0, 4);
    return {
      question: `How many ${rel.child.spec.plural} ${parentClause(rel, parentName)} have ${an(d.label)} in ${year}?`,
      query: `SELECT COUNT(*) FROM ${joinOn(rel)} WHERE T2.${rel.parent.nameColumn!.name} = ${sqlLiteral(parentName)} AND strftime('%Y', T1.${d.name}) = '${year}'`,
      tables: [rel.child.name, rel.parent.name],
    };
  }).filter((x) => x !== undefined)),
};

const distinctParentsPerCategory: QuestionTemplate = {
  id: 'medium/distinct-parents-per-category', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.child.categories.map((c) => ({
    question: phrase(rng, [
      `For each ${c.label} of ${rel.child.spec.plural}, how many different ${pluralize(rel.column.label)} are involved?`,
      `How many distinct ${pluralize(rel.column.label)} appear among the ${rel.child.spec.plural} of each ${c.label}?`,
    ]),
    query: `SELECT ${c.name}, COUNT(DISTINCT ${rel.column.name}) FROM ${rel.child.name}${where([notNullGuard(c)])} GROUP BY ${c.name}`,
    tables: [rel.child.name],
  }))),
};

const aggregateByParentCategory: QuestionTemplate = {
  id: 'medium/join-aggregate-parent-category', difficulty: 'medium', perDatabase: 3,
  drafts: (view, rng) => view.relations.flatMap((rel) => rel.parent.categories.flatMap((c) => rel.child.numbers.map((n) => {
    const v = rng.choice(view.distinct(rel.parent, c));
    const a = rng.choice(aggregatesFor(n));
    return {
      question: rel.column.label === rel.parent.spec.singular
        ? `What is the ${rng.choice(a.words)} ${n.label} of ${rel.child.spec.plural} of ${rel.parent.spec.plural} ${categoryClause(c, v)}?`
        : `What is the ${rng.choice(a.words)} ${n.label} of ${rel.child.spec.plural} whose ${rel.column.label} is ${an(rel.parent.spec.singular)} ${categoryClause(c, v)}?`,
      query: `SELECT ${a.fn}(T1.${n.name}) FROM ${joinOn(rel)} WHERE T2.${c.name} = ${sqlLiteral(v)}`,
      tables: [rel.child.name, rel.parent.name],
    };
  }))),
};

const namedPairs: QuestionTemplate = {
  id: 'medium/join-name-pairs', difficulty: 'medium', perDatabase: 2,
  drafts: (view, rng) => view.namedRelations().filter((r) => r.child.nameColumn).flatMap((rel) => rel.child.categories.map((c) => {
    const v = rng.choice(view.distinct(rel.child, c));
    return {
      question: `List each ${rel.child.spec.singular} ${categoryClause(c, v)} together with the ${rel.parent.nameColumn!.label} of its ${rel.column.label}.`,
      query: `SELECT T1.${rel.child.nameColumn!.name}, T2.${rel.parent.nameColumn!.name} FROM ${joinOn(rel)} WHERE T1.${c.name} = ${sqlLiteral(v)}`,
      tables: [rel.child.name, rel.parent.name],
    };
  })),
};

/**
 * Every generic medium template.
 *
 * @example
 * ```ts
 * MEDIUM_TEMPLATES.map((t) => t.id);
 * ```
 */
export const MEDIUM_TEMPLATES: readonly QuestionTemplate[] = [
  countPerCategory, aggregatePerCategory, topOne, topK, mostCommonCategory, countChildrenOfNamed,
  childNamesOfNamed, countChildrenByParentCategory, aggregateChildrenOfNamed, countPerYear,
  countChildrenPerParentCategory, parentOfNamedChild, countCategoryInYear, categoryWithHighestAverage,
  distinctParentsWithCategory, countAboveThresholdForNamed, countPerCategorySorted, countPerCategoryFiltered,
  countPerSmallParent, topKWithValues, averageChildPerParentCategory, countChildParentAndChildCategory, averagePerYear,
  topInCategory, topChildOfNamed, countPerCategoryInYear, countForNamedInYear, distinctParentsPerCategory,
  aggregateByParentCategory, namedPairs,
];
