/**
 * Writes fixtures/marketplace.json (and fixtures/fixture-set.schema.json): a hand-curated catalog of agents with token figures and dates drawn once from a
 * fixed seed, one account per plan (and a drained and a nearly-drained one), readable demo keys.
 * Run once from the repository root and commit the output:
 *   npx esbuild scripts/generate-marketplace.ts --bundle --platform=node --format=esm --log-level=warning | node --input-type=module
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import {
  FixtureSetSchema,
  parseFixtureSet,
  type FixtureAgent,
  type FixtureKey,
  type FixtureSet,
} from '../src/model/fixture-schema.js';
import { MAGIC_ACCOUNT, magicKeys } from '../src/model/default-fixtures.js';
import type { ModelId } from '../src/model/models.js';
import { intBetween, rngFor, seededId } from '../src/model/random.js';

const SEED = 2026;

/** name, model, capabilities, description: the catalog a sales engineer shows. */
const CATALOG: [string, ModelId, string[], string][] = [
  [
    'Contract Summarizer',
    'model-a',
    ['summarization', 'legal', 'data-extraction'],
    'Reads contracts and NDAs and returns the parties, terms, renewal dates and unusual clauses in one page.',
  ],
  [
    'Meeting Notes Writer',
    'model-b',
    ['summarization', 'transcription-cleanup'],
    'Turns raw meeting transcripts into decisions, action items with owners, and open questions.',
  ],
  [
    'Research Digest',
    'model-c',
    ['research', 'summarization', 'citation'],
    'Surveys papers and articles on a topic and writes a cited digest with the main findings and disagreements.',
  ],
  [
    'Earnings Call Analyst',
    'model-a',
    ['summarization', 'finance', 'sentiment-analysis'],
    'Extracts guidance, KPIs and management tone from earnings call transcripts.',
  ],
  [
    'Ticket Triage',
    'model-b',
    ['classification', 'routing', 'customer-support'],
    'Labels support tickets by product area, urgency and sentiment, and routes them to the right queue.',
  ],
  [
    'Support Reply Drafter',
    'model-b',
    ['customer-support', 'copywriting'],
    'Drafts polite, on-brand replies to customer tickets from the help-center articles it is given.',
  ],
  [
    'Churn Signal Detector',
    'model-a',
    ['classification', 'sentiment-analysis', 'customer-support'],
    'Flags conversations that show churn risk and explains the signals it found.',
  ],
  [
    'Review Sentiment Scorer',
    'model-b',
    ['sentiment-analysis', 'classification'],
    'Scores product reviews by sentiment and aspect (price, quality, delivery, service).',
  ],
  [
    'Python Code Generator',
    'model-a',
    ['code-generation', 'python'],
    'Writes idiomatic, typed Python functions and modules from a specification, with docstrings.',
  ],
  [
    'TypeScript Pair Programmer',
    'model-c',
    ['code-generation', 'typescript', 'refactoring'],
    'Implements features and refactors TypeScript code bases in small, reviewable steps.',
  ],
  [
    'Pull Request Reviewer',
    'model-a',
    ['code-review', 'security'],
    'Reviews diffs for bugs, missing tests, insecure patterns and unclear names; comments line by line.',
  ],
  [
    'Unit Test Writer',
    'model-b',
    ['code-generation', 'testing'],
    'Writes table-driven unit tests for a given function, covering edge cases and error paths.',
  ],
  [
    'SQL Query Builder',
    'model-b',
    ['sql', 'data-analysis'],
    'Translates questions in plain English into SQL for PostgreSQL, MySQL or BigQuery, with an explanation.',
  ],
  [
    'Schema Migration Planner',
    'model-a',
    ['sql', 'planning'],
    'Plans zero-downtime database migrations: steps, backfills, rollbacks and the order of deploys.',
  ],
  [
    'Log Anomaly Explainer',
    'model-c',
    ['observability', 'classification', 'summarization'],
    'Clusters error logs, finds what changed, and explains the likely root cause of an incident.',
  ],
  [
    'Incident Postmortem Writer',
    'model-a',
    ['summarization', 'observability', 'copywriting'],
    'Writes blameless postmortems from incident timelines, chat logs and graphs.',
  ],
  [
    'Invoice Extractor',
    'model-b',
    ['data-extraction', 'finance', 'ocr-cleanup'],
    'Pulls vendor, line items, taxes and totals out of invoices and receipts as structured JSON.',
  ],
  [
    'Resume Parser',
    'model-b',
    ['data-extraction', 'recruiting'],
    'Parses resumes into skills, roles, dates and education; normalizes job titles.',
  ],
  [
    'Job Description Writer',
    'model-b',
    ['copywriting', 'recruiting'],
    'Writes inclusive job descriptions from a role brief, with responsibilities and requirements.',
  ],
  [
    'Product Copywriter',
    'model-a',
    ['copywriting', 'marketing', 'seo'],
    'Writes product pages, taglines and feature announcements in your brand voice.',
  ],
  [
    'SEO Brief Generator',
    'model-b',
    ['seo', 'research', 'marketing'],
    'Builds content briefs: search intent, outline, questions to answer and internal links.',
  ],
  [
    'Ad Variant Generator',
    'model-b',
    ['copywriting', 'marketing'],
    "Produces headline and body variants for A/B tests within each ad network's length limits.",
  ],
  [
    'Localization Translator',
    'model-c',
    ['translation', 'localization'],
    'Translates UI strings and documents into 30+ languages, keeping placeholders and tone intact.',
  ],
  [
    'Legal Translator',
    'model-a',
    ['translation', 'legal'],
    'Translates contracts and policies between English, German, French and Spanish with term glossaries.',
  ],
  [
    'Spreadsheet Formula Helper',
    'model-b',
    ['data-analysis', 'question-answering'],
    'Explains and writes spreadsheet formulas, pivot tables and lookups for Excel and Google Sheets.',
  ],
  [
    'Data Cleaning Assistant',
    'model-b',
    ['data-extraction', 'data-analysis'],
    'Normalizes messy CSV columns: dates, currencies, addresses and duplicate records.',
  ],
  [
    'Market Sizing Analyst',
    'model-c',
    ['research', 'finance', 'planning'],
    'Estimates TAM/SAM/SOM from public data with the assumptions and sources spelled out.',
  ],
  [
    'Competitive Intel Scout',
    'model-a',
    ['research', 'summarization', 'marketing'],
    "Tracks competitors' pricing pages, releases and reviews, and writes a weekly brief.",
  ],
  [
    'Sprint Planner',
    'model-b',
    ['planning', 'project-management'],
    "Breaks epics into estimated stories and proposes a sprint plan within the team's capacity.",
  ],
  [
    'Policy Q&A Bot',
    'model-b',
    ['question-answering', 'hr'],
    'Answers employee questions from the HR handbook and cites the section it used.',
  ],
  [
    'Compliance Checker',
    'model-c',
    ['legal', 'classification', 'security'],
    'Checks documents against GDPR, SOC 2 and HIPAA controls and lists the gaps.',
  ],
  [
    'Accessibility Auditor',
    'model-a',
    ['code-review', 'accessibility'],
    'Audits HTML and component code against WCAG 2.2 and proposes concrete fixes.',
  ],
  [
    'API Docs Writer',
    'model-a',
    ['copywriting', 'code-generation', 'documentation'],
    'Writes reference docs and quick-start guides from OpenAPI documents and code samples.',
  ],
  [
    'Email Classifier',
    'model-b',
    ['classification', 'routing'],
    'Sorts inbound email into sales, support, billing, spam and partnership requests.',
  ],
  [
    'Medical Notes Summarizer (beta)',
    'model-c',
    ['summarization', 'healthcare'],
    'Summarizes clinical notes into problem lists and medications. Beta: currently unavailable.',
  ],
  [
    'Legacy COBOL Explainer',
    'model-c',
    ['code-review', 'documentation'],
    'Explains legacy COBOL programs in plain English. Retired: currently unavailable.',
  ],
];

function agents(): FixtureAgent[] {
  const from = Date.parse('2025-02-01T00:00:00.000Z');
  const to = Date.parse('2026-10-31T00:00:00.000Z');
  const list = CATALOG.map(([name, model, capabilities, description]): FixtureAgent => {
    const rand = rngFor(SEED, `marketplace-agent:${name}`);
    const outputMin = intBetween(rand, 150, 600);
    return {
      id: seededId('agt', SEED, `marketplace-agent:${name}`),
      name,
      description,
      capabilities,
      model,
      status: description.includes('currently unavailable') ? 'unavailable' : 'available',
      created_at: new Date(from + Math.floor((rand() * (to - from)) / 1000) * 1000).toISOString(),
      tokens: {
        overhead: intBetween(rand, 80, 450),
        output_min: outputMin,
        output_max: outputMin + intBetween(rand, 600, 4000),
      },
    };
  });
  return list.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

const key = (account: string, label: string, scopes: FixtureKey['scopes']): FixtureKey => ({
  id: `key_${account}_${label.replace(':', '_')}`,
  key: `ak_demo_${account}_${label.replace(':', '_')}`,
  account_id: `acc_${account}`,
  scopes,
  label,
});

const set: FixtureSet = {
  $schema: './fixture-set.schema.json',
  name: 'marketplace',
  description:
    'A marketplace demo: 36 agents across capabilities and the three models, one account per plan plus a drained and a low-balance account, readable demo keys (ak_demo_<account>_<label>), and the magic keys of the default set (ak_magic_<scenario>) on acc_magic.',
  accounts: [
    { id: 'acc_acme', name: 'Acme Robotics (Pro)', plan: 'pro' },
    { id: 'acc_globex', name: 'Globex Corporation (Enterprise)', plan: 'enterprise' },
    { id: 'acc_initech', name: 'Initech (Starter)', plan: 'starter' },
    { id: 'acc_hobby', name: 'Hobby Hacker (Free)', plan: 'free' },
    { id: 'acc_lowbalance', name: 'Umbrella Labs (Pro, $0.05 left)', plan: 'pro', balance_usd: 0.05 },
    { id: 'acc_drained', name: 'Soylent Startup (Starter, no credits)', plan: 'starter', balance_usd: 0 },
    { id: MAGIC_ACCOUNT, name: 'Magic Keys (Enterprise)', plan: 'enterprise' },
  ],
  keys: [
    key('acme', 'admin', ['admin']),
    key('acme', 'read:agents', ['read:agents']),
    key('acme', 'read:tasks', ['read:tasks']),
    key('acme', 'write:tasks', ['write:tasks', 'read:tasks']),
    key('acme', 'read:usage', ['read:usage']),
    { ...key('acme', 'revoked', ['admin']), revoked: true },
    key('globex', 'admin', ['admin']),
    key('globex', 'backend', ['read:agents', 'write:tasks', 'read:tasks']),
    key('globex', 'dashboard', ['read:usage', 'read:analytics']),
    key('initech', 'admin', ['admin']),
    key('initech', 'read:agents', ['read:agents']),
    key('hobby', 'admin', ['admin']),
    key('lowbalance', 'admin', ['admin']),
    key('drained', 'admin', ['admin']),
    // The same magic keys as the default set (ak_magic_<scenario>), so a client reaches every scenario here too.
    ...magicKeys(),
  ],
  agents: agents(),
};

parseFixtureSet(set, 'marketplace (generated)');
writeFileSync('fixtures/marketplace.json', `${JSON.stringify(set, null, 2)}\n`);
process.stdout.write(
  `fixtures/marketplace.json: ${set.accounts.length} accounts, ${set.keys.length} keys, ${set.agents.length} agents\n`,
);

// The JSON Schema of fixture sets, for editors ("$schema": "./fixture-set.schema.json"); generated from the zod schema.
const jsonSchema = {
  ...z.toJSONSchema(FixtureSetSchema, { target: 'draft-2020-12', io: 'input' }),
  title: 'agent-work-sandbox fixture set',
};
writeFileSync('fixtures/fixture-set.schema.json', `${JSON.stringify(jsonSchema, null, 2)}\n`);
