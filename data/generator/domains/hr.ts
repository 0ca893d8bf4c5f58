/** Human resources: offices, departments, employees, performance reviews and training. */
import { category, categoryBy, date, integer, key, nameColumn, real, ref, refBy } from '../columns.js';
import { addDays, personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITIES } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const OFFICE_CITIES = ['Lisbon', 'Berlin', 'Toronto', 'Austin', 'Singapore', 'Dublin', 'Sydney', 'Sao Paulo', 'Madrid', 'Paris',
  'Amsterdam', 'Stockholm', 'London', 'Chicago', 'Seattle', 'Tokyo', 'Seoul', 'Mumbai', 'Nairobi', 'Mexico City'];
const DEPARTMENTS = ['Engineering', 'Sales', 'Marketing', 'Finance', 'Legal', 'Support', 'Operations', 'Research', 'Design', 'People'];
const LEVEL_PAY: Record<string, number> = { junior: 42000, mid: 61000, senior: 84000, lead: 105000, director: 140000 };

const latestReview: QuestionTemplate = {
  id: 'hr/latest-review-rating', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('employee').rows, 12).map((e) => {
    const from = `FROM performance_review AS T1 JOIN employee AS T2 ON T1.employee_id = T2.id WHERE T2.name = ${sqlLiteral(e['name']!)}`;
    return {
      question: `What rating did ${String(e['name'])} get in their most recent performance review?`,
      query: `SELECT T1.rating ${from} ORDER BY T1.review_date DESC LIMIT 1`,
      tables: ['performance_review', 'employee'],
      tie: { probe: `SELECT T1.review_date ${from} ORDER BY T1.review_date DESC LIMIT 2`, k: 1 },
    };
  }),
};

const payrollPerOffice: QuestionTemplate = {
  id: 'hr/payroll-per-office', difficulty: 'hard', perDatabase: 2,
  drafts: () => [{
    question: 'What is the total yearly salary bill of each office? Give the office city and the total.',
    query: 'SELECT T3.city, SUM(T1.salary) FROM employee AS T1 JOIN department AS T2 ON T1.department_id = T2.id JOIN office AS T3 ON T2.office_id = T3.id GROUP BY T3.id',
    tables: ['employee', 'department', 'office'],
  }, {
    question: 'Which office has the highest average employee salary? Give its city.',
    query: 'SELECT T3.city FROM employee AS T1 JOIN department AS T2 ON T1.department_id = T2.id JOIN office AS T3 ON T2.office_id = T3.id GROUP BY T3.id ORDER BY AVG(T1.salary) DESC LIMIT 1',
    tables: ['employee', 'department', 'office'],
    tie: { probe: 'SELECT AVG(T1.salary) FROM employee AS T1 JOIN department AS T2 ON T1.department_id = T2.id JOIN office AS T3 ON T2.office_id = T3.id GROUP BY T3.id ORDER BY AVG(T1.salary) DESC LIMIT 2', k: 1 },
  }],
};

const untrainedInDepartment: QuestionTemplate = {
  id: 'hr/untrained-in-department', difficulty: 'extra', perDatabase: 3,
  drafts: (view, rng) => sampleSome(rng, view.table('department').rows, 10).map((d) => ({
    question: `How many employees of the ${String(d['name'])} department have never completed a training course?`,
    query: `SELECT COUNT(*) FROM employee AS T1 WHERE T1.department_id = ${d['id']} AND NOT EXISTS (SELECT 1 FROM training_record AS T2 WHERE T2.employee_id = T1.id AND T2.completed_on IS NOT NULL)`,
    tables: ['employee', 'training_record'],
  })),
};

/** The HR domain. */
export const hrDomain: DomainSpec = {
  id: 'company_hr',
  summary: 'A company\'s HR records: offices, departments, employees, performance reviews and training.',
  tables: [
    {
      name: 'office', singular: 'office', plural: 'offices', rowCount: OFFICE_CITIES.length,
      columns: [
        key(),
        nameColumn('city', 'city', (_rng, ctx) => OFFICE_CITIES[ctx.index]!),
        categoryBy('country', 'country', (ctx) => CITIES.find((c) => c.city === ctx.row['city'])!.country, { phrase: (v) => `in ${v}` }),
        date('opened_on', 'opening date', '2005-01-01', '2022-12-31'),
        integer('desks', 'number of desks', 40, 600),
      ],
    },
    {
      name: 'department', singular: 'department', plural: 'departments', rowCount: 60,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => `${DEPARTMENTS[ctx.index % DEPARTMENTS.length]!} ${OFFICE_CITIES[Math.floor(ctx.index / 3) % OFFICE_CITIES.length]!}`),
        categoryBy('function', 'function', (ctx) => String(ctx.row['name']).split(' ')[0]!),
        // Departments come in threes per office city, matching the city in their name.
        refBy('office_id', 'office', 'office', (ctx) => (Math.floor(ctx.index / 3) % OFFICE_CITIES.length) + 1),
        real('annual_budget', 'annual budget', 150000, 4e6, 0, { currency: '$' }),
      ],
    },
    {
      name: 'employee', singular: 'employee', plural: 'employees', rowCount: 520,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        ref('department_id', 'department', 'department'),
        category('level', 'job level', ['junior', 'mid', 'senior', 'lead', 'director'], { weights: [6, 8, 5, 2, 1] }),
        date('hire_date', 'hire date', '2008-01-01', '2024-10-31'),
        real('salary', 'salary', 30000, 220000, 0, { currency: '$', gen: (ctx) => LEVEL_PAY[String(ctx.row['level'])]! * (0.85 + ctx.rng.float() * 0.4) }),
        category('work_mode', 'work mode', ['on-site', 'hybrid', 'remote'], { weights: [3, 5, 2], phrase: (v) => `working ${v}` }),
        date('left_on', 'leaving date', '2010-01-01', '2024-12-31', { nullRate: 0.85, gen: (ctx) => addDays(String(ctx.row['hire_date']), ctx.rng.intBetween(90, 2500)) }),
      ],
    },
    {
      name: 'performance_review', singular: 'performance review', plural: 'performance reviews', rowCount: 1500,
      columns: [
        key(),
        ref('employee_id', 'employee', 'employee'),
        date('review_date', 'review date', '2019-01-01', '2024-12-15'),
        integer('rating', 'rating', 1, 5, { summable: false, gen: (ctx) => weightedChoice(ctx.rng, [1, 2, 3, 4, 5], [1, 3, 8, 6, 2]) }),
        category('outcome', 'outcome', ['no change', 'raise', 'promotion', 'improvement plan'], { weights: [8, 6, 2, 1] }),
      ],
    },
    {
      name: 'training_course', singular: 'training course', plural: 'training courses', rowCount: 30,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => `${rng.choice(['Effective', 'Advanced', 'Practical', 'Modern', 'Introduction to'])} ${rng.choice(['Negotiation', 'Leadership', 'Data Privacy', 'Public Speaking', 'Project Planning', 'Security Awareness', 'Customer Care', 'Budgeting', 'Inclusive Hiring', 'Time Management'])}`, { quoted: true }),
        category('format', 'format', ['online', 'classroom', 'workshop']),
        integer('hours', 'length in hours', 2, 40),
      ],
    },
    {
      name: 'training_record', singular: 'training record', plural: 'training records', rowCount: 1200,
      uniqueTogether: ['employee_id', 'course_id'],
      columns: [
        key(),
        ref('employee_id', 'employee', 'employee'),
        ref('course_id', 'training_course', 'training course'),
        date('enrolled_on', 'enrolment date', '2020-01-01', '2024-11-30'),
        date('completed_on', 'completion date', '2020-01-01', '2024-12-31', { nullRate: 0.2, gen: (ctx) => addDays(String(ctx.row['enrolled_on']), ctx.rng.intBetween(1, 120)) }),
      ],
    },
  ],
  templates: [latestReview, payrollPerOffice, untrainedInDepartment],
};
