/** A secondary school: teachers, students, courses, enrolments and clubs. */
import { category, categoryBy, date, integer, key, nameColumn, real, ref } from '../columns.js';
import { personName } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const SUBJECTS = ['Mathematics', 'Physics', 'Chemistry', 'Biology', 'History', 'Geography', 'Literature', 'Art', 'Music', 'Computer Science'];
const LEVELS = ['Introductory', 'Intermediate', 'Advanced'];

const studentAverage: QuestionTemplate = {
  id: 'school/student-average-score', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('student').rows, 10).map((s) => ({
    question: `What is ${String(s['name'])}'s average score across their enrolments?`,
    query: `SELECT AVG(T1.score) FROM enrollment AS T1 JOIN student AS T2 ON T1.student_id = T2.id WHERE T2.name = ${sqlLiteral(s['name']!)}`,
    tables: ['enrollment', 'student'],
  })),
};

const bestStudentInCourse: QuestionTemplate = {
  id: 'school/best-student-in-course', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('course').rows, 10).map((c) => {
    const from = `FROM enrollment AS T1 JOIN student AS T2 ON T1.student_id = T2.id JOIN course AS T3 ON T1.course_id = T3.id WHERE T3.title = ${sqlLiteral(c['title']!)} AND T1.score IS NOT NULL`;
    return {
      question: `Who got the highest score in the course "${String(c['title'])}"?`,
      query: `SELECT T2.name ${from} ORDER BY T1.score DESC LIMIT 1`,
      tables: ['enrollment', 'student', 'course'],
      tie: { probe: `SELECT T1.score ${from} ORDER BY T1.score DESC LIMIT 2`, k: 1 },
    };
  }),
};

const studentsInSubjectsBoth: QuestionTemplate = {
  id: 'school/students-in-two-subjects', difficulty: 'extra', perDatabase: 3,
  drafts: (_view, rng) => Array.from({ length: 6 }, () => sampleSome(rng, SUBJECTS, 2)).map(([a, b]) => {
    const part = (s: string) => `SELECT T2.name FROM enrollment AS T1 JOIN student AS T2 ON T1.student_id = T2.id JOIN course AS T3 ON T1.course_id = T3.id WHERE T3.subject = ${sqlLiteral(s)} AND T2.grade_level = 12`;
    return {
      question: `Which twelfth-grade students are enrolled in both a ${a} course and a ${b} course?`,
      query: `${part(a!)} INTERSECT ${part(b!)}`,
      tables: ['enrollment', 'student', 'course'],
    };
  }),
};

/**
 * The school domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(schoolDomain, BUNDLED_SEED);
 * db.rows.get('teacher')?.length;
 * ```
 */
export const schoolDomain: DomainSpec = {
  id: 'school',
  summary: 'A secondary school: teachers, students, the courses they take with scores, and after-school clubs.',
  tables: [
    {
      name: 'teacher', singular: 'teacher', plural: 'teachers', rowCount: 40,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('subject', 'subject', SUBJECTS, { phrase: (v) => `teaching ${v}` }),
        date('hire_date', 'hire date', '1998-09-01', '2024-09-01'),
        real('salary', 'salary', 32000, 78000, 0, { currency: '$' }),
      ],
    },
    {
      name: 'club', singular: 'club', plural: 'clubs', rowCount: 20,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => ['Chess Club', 'Drama Club', 'Robotics Club', 'Debate Society', 'Choir', 'Football Team', 'Photography Club', 'Science Olympiad', 'Art Studio', 'Model UN', 'Hiking Club', 'Jazz Band',
          'Coding Club', 'Book Club', 'Astronomy Club', 'Student Newspaper', 'Gardening Club', 'Film Society', 'Volleyball Team', 'Math Circle'][ctx.index]!),
        ref('advisor_id', 'teacher', 'advisor'),
        category('meeting_day', 'meeting day', ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], { phrase: (v) => `meeting on ${v}` }),
      ],
    },
    {
      name: 'student', singular: 'student', plural: 'students', rowCount: 480,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        integer('grade_level', 'grade level', 9, 12, { summable: false }),
        date('birth_date', 'birth date', '2006-09-01', '2011-08-31'),
        category('house', 'house', ['Aster', 'Birch', 'Cedar', 'Linden'], { phrase: (v) => `in ${v} house` }),
        ref('club_id', 'club', 'club', { nullRate: 0.35 }),
      ],
    },
    {
      name: 'course', singular: 'course', plural: 'courses', rowCount: 60,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => `${rng.choice(LEVELS)} ${rng.choice(SUBJECTS)} ${rng.choice(['I', 'II', 'III', 'Seminar', 'Lab', 'Workshop'])}`, { quoted: true }),
        categoryBy('subject', 'subject', (ctx) => SUBJECTS.find((subject) => String(ctx.row['title']).includes(subject)) ?? null),
        ref('teacher_id', 'teacher', 'teacher'),
        integer('credits', 'credit count', 1, 6),
        integer('max_students', 'class size limit', 12, 35, { summable: false }),
      ],
    },
    {
      name: 'enrollment', singular: 'enrolment', plural: 'enrolments', rowCount: 1900,
      uniqueTogether: ['student_id', 'course_id'],
      columns: [
        key(),
        ref('student_id', 'student', 'student'),
        ref('course_id', 'course', 'course'),
        category('term', 'term', ['2023 fall', '2024 spring', '2024 fall'], { phrase: (v) => `in the ${v} term` }),
        integer('score', 'score', 20, 100, { nullRate: 0.08, summable: false, gen: (ctx) => Math.max(20, Math.min(100, Math.round(72 + 13 * ctx.rng.normal()))) }),
      ],
    },
  ],
  templates: [studentAverage, bestStudentInCourse, studentsInSubjectsBoth],
};
