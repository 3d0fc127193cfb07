/**
 * The words of generated agents' names and descriptions, by capability: what a marketplace listing says an agent
 * does. Drawn by default-fixtures.ts (one element of each list per agent, from its first capability).
 */

/** Per capability: the first word of a name, the role that ends it, and what the agent does (a description's start). */
export const AGENT_WORDS: Readonly<Record<string, { prefixes: string[]; roles: string[]; does: string[] }>> = {
  summarization: {
    prefixes: ['Report', 'Meeting', 'Brief', 'Digest', 'Document'],
    roles: ['Summarizer', 'Digest Writer', 'Note Taker'],
    does: [
      'Condenses long reports into short bullet points that keep the key figures',
      'Turns meeting transcripts into decisions, action items and open questions',
      'Writes one-page summaries of documents, threads and tickets',
    ],
  },
  translation: {
    prefixes: ['Polyglot', 'Global', 'Locale', 'Document', 'Support'],
    roles: ['Translator', 'Localizer'],
    does: [
      'Translates documents and UI strings into French, German, Spanish, Italian and Portuguese',
      'Localizes product copy and help articles, keeping placeholders and tone intact',
      'Translates customer emails and replies in the language they came in',
    ],
  },
  'code-generation': {
    prefixes: ['Python', 'TypeScript', 'Backend', 'Script', 'Feature'],
    roles: ['Coder', 'Code Generator', 'Pair Programmer'],
    does: [
      'Writes functions and small modules from a plain-English specification',
      'Generates typed, documented code in Python, TypeScript, Go, Rust or Java',
      'Turns tickets into working code with a short explanation of each choice',
    ],
  },
  'code-review': {
    prefixes: ['Pull Request', 'Security', 'Diff', 'Style', 'Quality'],
    roles: ['Reviewer', 'Code Reviewer', 'Auditor'],
    does: [
      'Reviews diffs for bugs, missing tests and unclear names, comment by comment',
      'Checks pull requests for insecure patterns and risky changes',
      'Reads code changes and gives a verdict with line-level suggestions',
    ],
  },
  'data-extraction': {
    prefixes: ['Invoice', 'Form', 'Receipt', 'Contract', 'Resume'],
    roles: ['Extractor', 'Parser'],
    does: [
      'Pulls names, dates, amounts and references out of documents as JSON fields',
      'Extracts structured records from invoices, receipts and forms',
      'Parses free text into the fields you name, with a confidence score',
    ],
  },
  classification: {
    prefixes: ['Ticket', 'Email', 'Intent', 'Topic', 'Inbox'],
    roles: ['Classifier', 'Triage', 'Router'],
    does: [
      'Labels tickets and emails by topic and urgency, with a confidence score',
      'Sorts incoming messages into the categories you define',
      'Classifies requests and routes each to the right queue',
    ],
  },
  research: {
    prefixes: ['Market', 'Literature', 'Competitor', 'Deep', 'Policy'],
    roles: ['Researcher', 'Analyst', 'Scout'],
    does: [
      'Researches a topic and writes a cited brief with its main findings',
      'Surveys articles and reports and lists the sources behind each claim',
      'Builds background briefs on markets, competitors and trends',
    ],
  },
  copywriting: {
    prefixes: ['Brand', 'Campaign', 'Product', 'Ad', 'Newsletter'],
    roles: ['Copywriter', 'Writer'],
    does: [
      'Writes headlines and body copy for product pages, ads and emails',
      'Drafts on-brand marketing copy with a clear call to action',
      'Produces launch announcements and landing page copy from a brief',
    ],
  },
  'question-answering': {
    prefixes: ['Knowledge', 'Help Desk', 'Policy', 'FAQ', 'Docs'],
    roles: ['Assistant', 'Answer Bot', 'Expert'],
    does: [
      'Answers questions in plain language and explains the reasoning behind each answer',
      'Answers employee and customer questions from your documentation',
      'Gives short, direct answers with the steps that led to them',
    ],
  },
  sql: {
    prefixes: ['SQL', 'Query', 'Warehouse', 'Analytics', 'Database'],
    roles: ['Query Builder', 'Analyst', 'Assistant'],
    does: [
      'Turns questions in plain English into SQL queries, with an explanation',
      'Writes and explains reporting queries for PostgreSQL, MySQL and BigQuery',
      'Drafts SQL for dashboards and ad hoc analysis',
    ],
  },
  'sentiment-analysis': {
    prefixes: ['Review', 'Feedback', 'Social', 'Survey', 'Voice of Customer'],
    roles: ['Sentiment Scorer', 'Analyst', 'Listener'],
    does: [
      'Scores reviews and messages as positive, negative, neutral or mixed',
      'Measures the tone of customer feedback, aspect by aspect',
      'Tracks how customers feel about products, prices and service',
    ],
  },
  planning: {
    prefixes: ['Project', 'Sprint', 'Launch', 'Roadmap', 'Migration'],
    roles: ['Planner', 'Coordinator', 'Strategist'],
    does: [
      'Breaks goals into numbered, ordered steps with owners and checkpoints',
      'Plans projects, launches and migrations step by step',
      'Turns a brief into a schedule of milestones and tasks',
    ],
  },
};

/** Who an agent is for: the end of the first sentence of a description. */
export const AUDIENCES: readonly string[] = [
  'for support teams',
  'for product teams',
  'for finance and operations',
  'for engineering teams',
  'for marketing teams',
  'for small businesses',
  'for analysts',
];

/** A word on each model, as the description's last sentence gives it. */
export const MODEL_NOTES: Readonly<Record<string, string>> = {
  'model-a': 'Runs on model-a, the larger general model, for careful work.',
  'model-b': 'Runs on model-b, the smaller general model: fast and low-cost.',
  'model-c': 'Runs on model-c, a third-party large model with a long context.',
};
