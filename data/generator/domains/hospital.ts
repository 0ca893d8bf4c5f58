/** A hospital: departments, doctors, patients, appointments and prescriptions. */
import { category, date, integer, key, nameColumn, real, ref } from '../columns.js';
import { addDays, personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITY_NAMES } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const DEPARTMENTS = ['Cardiology', 'Neurology', 'Oncology', 'Pediatrics', 'Orthopedics', 'Dermatology', 'Radiology', 'Emergency', 'Psychiatry', 'General Surgery',
  'Gastroenterology', 'Endocrinology', 'Nephrology', 'Urology', 'Ophthalmology', 'Obstetrics', 'Geriatrics', 'Rheumatology', 'Pulmonology', 'Hematology'];
const DRUGS = ['Amoxicillin', 'Ibuprofen', 'Metformin', 'Lisinopril', 'Atorvastatin', 'Omeprazole', 'Sertraline', 'Paracetamol', 'Prednisone', 'Salbutamol', 'Warfarin', 'Levothyroxine'];

const drugsForPatient: QuestionTemplate = {
  id: 'hospital/drugs-for-patient', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('patient').rows, 10).map((p) => ({
    question: `Which drugs have been prescribed to ${String(p['name'])}? List each drug once.`,
    query: `SELECT DISTINCT T1.drug_name FROM prescription AS T1 JOIN appointment AS T2 ON T1.appointment_id = T2.id JOIN patient AS T3 ON T2.patient_id = T3.id WHERE T3.name = ${sqlLiteral(p['name']!)}`,
    tables: ['prescription', 'appointment', 'patient'],
  })),
};

const patientsOfDepartment: QuestionTemplate = {
  id: 'hospital/patients-seen-in-department', difficulty: 'hard', perDatabase: 4,
  drafts: (_view, rng) => sampleSome(rng, DEPARTMENTS, 5).map((d) => ({
    question: `How many different patients have had an appointment with a doctor from the ${d} department?`,
    query: `SELECT COUNT(DISTINCT T1.patient_id) FROM appointment AS T1 JOIN doctor AS T2 ON T1.doctor_id = T2.id JOIN department AS T3 ON T2.department_id = T3.id WHERE T3.name = ${sqlLiteral(d)}`,
    tables: ['appointment', 'doctor', 'department'],
  })),
};

const feesPerDoctorInMonth: QuestionTemplate = {
  id: 'hospital/fees-in-month', difficulty: 'medium', perDatabase: 3,
  drafts: (_view, rng) => sampleSome(rng, ['2023-03', '2023-07', '2023-11', '2024-02', '2024-05', '2024-09'], 4).map((m) => ({
    question: `What was the total of appointment fees for completed appointments in ${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][Number(m.slice(5)) - 1]} ${m.slice(0, 4)}?`,
    query: `SELECT SUM(fee) FROM appointment WHERE status = 'completed' AND strftime('%Y-%m', appointment_date) = ${sqlLiteral(m)}`,
    tables: ['appointment'],
  })),
};

/**
 * The hospital domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(hospitalDomain, BUNDLED_SEED);
 * db.rows.get('department')?.length;
 * ```
 */
export const hospitalDomain: DomainSpec = {
  id: 'hospital',
  summary: 'A city hospital: departments, doctors, patients, appointments and the prescriptions written at them.',
  tables: [
    {
      name: 'department', singular: 'department', plural: 'departments', rowCount: DEPARTMENTS.length,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => DEPARTMENTS[ctx.index]!),
        integer('floor', 'floor', 0, 7, { summable: false }),
        real('annual_budget', 'annual budget', 0.8e6, 9e6, 0, { currency: '$' }),
        integer('beds', 'number of beds', 0, 80, { nullRate: 0.1 }),
      ],
    },
    {
      name: 'doctor', singular: 'doctor', plural: 'doctors', rowCount: 70,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => `Dr. ${personName(rng)}`),
        ref('department_id', 'department', 'department'),
        category('seniority', 'seniority', ['resident', 'attending', 'consultant', 'head'], { weights: [4, 6, 3, 1] }),
        date('hire_date', 'hire date', '2002-01-01', '2024-03-31'),
        real('salary', 'salary', 60000, 320000, 0, {
          currency: '$',
          gen: (ctx) => ({ resident: 65000, attending: 140000, consultant: 190000, head: 260000 } as Record<string, number>)[String(ctx.row['seniority'])]! * (0.85 + ctx.rng.float() * 0.35),
        }),
      ],
    },
    {
      name: 'patient', singular: 'patient', plural: 'patients', rowCount: 600,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('sex', 'sex', ['female', 'male']),
        date('birth_date', 'birth date', '1932-01-01', '2023-12-31'),
        category('blood_type', 'blood type', ['O+', 'A+', 'B+', 'AB+', 'O-', 'A-', 'B-', 'AB-'], { weights: [37, 34, 9, 3, 7, 6, 2, 1] }),
        category('city', 'city', CITY_NAMES.slice(0, 6), { phrase: (v) => `living in ${v}` }),
        category('insurance', 'insurance plan', ['public', 'private basic', 'private premium'], { nullRate: 0.1, weights: [6, 3, 1] }),
      ],
    },
    {
      name: 'appointment', singular: 'appointment', plural: 'appointments', rowCount: 1800,
      columns: [
        key(),
        ref('patient_id', 'patient', 'patient'),
        ref('doctor_id', 'doctor', 'doctor'),
        date('appointment_date', 'appointment date', '2023-01-01', '2024-12-31'),
        category('reason', 'reason', ['check-up', 'follow-up', 'consultation', 'emergency', 'procedure'], { weights: [5, 5, 4, 2, 1], phrase: (v) => `for a ${v}` }),
        category('status', 'status', ['completed', 'cancelled', 'no-show'], { weights: [16, 3, 1] }),
        real('fee', 'fee', 40, 900, 2, {
          currency: '$',
          gen: (ctx) => ({ 'check-up': 60, 'follow-up': 45, consultation: 120, emergency: 300, procedure: 650 } as Record<string, number>)[String(ctx.row['reason'])]! * (0.8 + ctx.rng.float() * 0.5),
        }),
      ],
    },
    {
      name: 'prescription', singular: 'prescription', plural: 'prescriptions', rowCount: 1300,
      columns: [
        key(),
        ref('appointment_id', 'appointment', 'appointment'),
        category('drug_name', 'drug', DRUGS, { weights: [5, 8, 3, 3, 4, 4, 2, 9, 2, 3, 1, 2] }),
        integer('dose_mg', 'dose in milligrams', 5, 1000, { summable: false, gen: (ctx) => weightedChoice(ctx.rng, [5, 10, 20, 50, 100, 250, 500, 1000], [1, 2, 3, 3, 3, 2, 3, 1]) }),
        integer('days', 'treatment length in days', 3, 90, { gen: (ctx) => weightedChoice(ctx.rng, [3, 5, 7, 10, 14, 30, 90], [2, 4, 5, 3, 3, 2, 1]) }),
        date('refill_by', 'refill date', '2023-01-01', '2025-06-30', {
          nullRate: 0.5,
          gen: (ctx) => addDays(String(ctx.lookup('appointment', ctx.row['appointment_id']!, 'appointment_date')), Number(ctx.row['days'])),
        }),
      ],
    },
  ],
  templates: [drugsForPatient, patientsOfDepartment, feesPerDoctorInMonth],
};
