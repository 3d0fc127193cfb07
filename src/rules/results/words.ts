/**
 * The word banks of generated task results: plain English, as data. Every entry is letters, digits, spaces and plain
 * punctuation only (no quote, no backslash), so that text built from them stays valid inside a JSON string.
 */

/** Sentence templates of prose: `{k}` a key word of the task's description, `{p}` a phrase of PHRASES. */
export const TEMPLATES: readonly string[] = [
  'The {k} figures point to {p}.',
  'Most of the change in {k} comes from {p}.',
  'Compared with the previous period, {k} shows {p}.',
  'The main risk around {k} is {p}.',
  'Teams working on {k} report {p}.',
  'A closer look at {k} reveals {p}.',
  'The {k} data supports {p}.',
  'Customers mention {k} together with {p}.',
  'For {k}, the clearest signal is {p}.',
  'The evidence on {k} is consistent with {p}.',
  'Any decision about {k} should account for {p}.',
  'The {k} workstream depends on {p}.',
  'Early results for {k} suggest {p}.',
  'The {k} numbers are in line with {p}.',
  'What stands out in {k} is {p}.',
  'Progress on {k} is limited by {p}.',
];

/** Short sentences: what fits where a long one does not. */
export const SHORT_TEMPLATES: readonly string[] = [
  'The {k} trend holds.',
  'Review {k} next.',
  '{k} is on track.',
  '{k} needs a closer look.',
  '{k} remains a priority.',
  'Watch {k} closely.',
  '{k} looks healthy.',
  'The {k} owner signs off.',
  'Keep {k} in scope.',
];

/** Noun phrases that complete a template. */
export const PHRASES: readonly string[] = [
  'a steady rise in demand',
  'lower costs in the second half',
  'a gap between plan and delivery',
  'strong retention among larger customers',
  'slower onboarding for new accounts',
  'a backlog that keeps growing',
  'better margins on the core product',
  'a dependency on a single supplier',
  'clearer ownership of each task',
  'a shift toward self-service',
  'rising support volume after each release',
  'a need for more frequent reviews',
  'higher conversion on the pricing page',
  'seasonal swings in usage',
  'an unclear handover between teams',
  'savings from automating manual checks',
  'longer response times at peak hours',
  'a healthy pipeline for the next quarter',
  'missing data in older records',
  'a simpler process with fewer approvals',
];

/** Words used when a description has too few key words of its own. */
export const DEFAULT_KEYWORDS: readonly string[] = ['project', 'report', 'customer', 'budget', 'timeline', 'quality'];

/** Words a key word never is. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'about above after again against also among and another any are attached because been before being below between ' +
    'both but can could does doing down during each either every few for from further have having here into its just ' +
    'make more most much must need only other our out over please same should some such than that the their them then ' +
    'there these they this those through too under until upon very want was were what when where which while who whom ' +
    'why will with within without would write your using give into onto three four five seven eight nine bullet ' +
    'bullets points point summarise summarize summary translate translation classify task query table tables extract ' +
    'review research score sentiment look plan write headline body pull scanned'
  ).split(' '),
);

/** Closing words by length (2–14 letters): the last words of a text built to an exact length. */
export const FILL_BY_LENGTH: readonly (readonly string[])[] = [
  [],
  [],
  ['ok', 'so', 'on'],
  ['yes', 'now', 'too', 'all'],
  ['done', 'next', 'well', 'soon'],
  ['noted', 'clear', 'ready', 'today'],
  ['agreed', 'closed', 'steady', 'stable'],
  ['settled', 'checked', 'covered', 'on plan'],
  ['reviewed', 'complete', 'accepted', 'on track'],
  ['confirmed', 'finalised', 'in review', 'validated'],
  ['consistent', 'documented', 'up to date', 'as planned'],
  ['on schedule', 'recommended', 'well scoped', 'in progress', 'as expected'],
  ['within scope', 'worth a look', 'under review', 'fully agreed'],
  ['in good shape', 'ready to ship', 'all confirmed', 'now completed'],
  ['fully in scope', 'worth watching', 'as recommended', 'clearly agreed'],
];

/** Short connecting words between a text and its last words. */
export const LINK_WORDS: readonly string[] = ['all', 'items', 'work', 'plan', 'next', 'data', 'scope', 'notes'];

/** Target languages of translations: tag, names that a description may use, and sentences in that language. */
export const LANGUAGES: readonly { tag: string; names: readonly string[]; sentences: readonly string[] }[] = [
  {
    tag: 'fr',
    names: ['french', 'francais'],
    sentences: [
      'Merci pour votre message.',
      'Nous avons bien reçu votre demande.',
      'Le rapport trimestriel montre une hausse des ventes.',
      'La réunion est prévue pour jeudi matin.',
      'Veuillez trouver le document en pièce jointe.',
      'Nous restons à votre disposition pour toute question.',
    ],
  },
  {
    tag: 'de',
    names: ['german', 'deutsch'],
    sentences: [
      'Vielen Dank für Ihre Nachricht.',
      'Wir haben Ihre Anfrage erhalten.',
      'Der Quartalsbericht zeigt steigende Umsätze.',
      'Das Treffen ist für Donnerstagmorgen geplant.',
      'Das Dokument finden Sie im Anhang.',
      'Bei Fragen stehen wir Ihnen gern zur Verfügung.',
    ],
  },
  {
    tag: 'es',
    names: ['spanish', 'espanol'],
    sentences: [
      'Gracias por su mensaje.',
      'Hemos recibido su solicitud.',
      'El informe trimestral muestra un aumento de las ventas.',
      'La reunión está prevista para el jueves por la mañana.',
      'Encontrará el documento adjunto.',
      'Quedamos a su disposición para cualquier pregunta.',
    ],
  },
  {
    tag: 'it',
    names: ['italian', 'italiano'],
    sentences: [
      'Grazie per il suo messaggio.',
      'Abbiamo ricevuto la sua richiesta.',
      'Il rapporto trimestrale mostra un aumento delle vendite.',
      'La riunione è prevista per giovedì mattina.',
      'Trova il documento in allegato.',
      'Restiamo a disposizione per qualsiasi domanda.',
    ],
  },
  {
    tag: 'pt',
    names: ['portuguese', 'portugues'],
    sentences: [
      'Obrigado pela sua mensagem.',
      'Recebemos o seu pedido.',
      'O relatório trimestral mostra um aumento das vendas.',
      'A reunião está marcada para quinta-feira de manhã.',
      'O documento segue em anexo.',
      'Ficamos à disposição para qualquer dúvida.',
    ],
  },
];

/** Programming languages: fence tag, words that name or imply it, and its block comment. */
export const CODE_LANGUAGES: readonly { tag: string; cues: readonly string[]; open: string; close: string }[] = [
  { tag: 'python', cues: ['python', 'pandas', 'django', 'flask', 'script', 'notebook'], open: '"""', close: '"""' },
  { tag: 'typescript', cues: ['typescript', 'react', 'angular', 'node', 'frontend'], open: '/*', close: '*/' },
  { tag: 'javascript', cues: ['javascript', 'browser', 'express'], open: '/*', close: '*/' },
  { tag: 'go', cues: ['golang', 'go service', 'goroutine'], open: '/*', close: '*/' },
  { tag: 'rust', cues: ['rust', 'cargo'], open: '/*', close: '*/' },
  { tag: 'java', cues: ['java', 'spring', 'kotlin'], open: '/*', close: '*/' },
];

/** Labels of classifications, each with the words of a description that point to it. */
export const LABELS: readonly { label: string; cue: RegExp }[] = [
  { label: 'billing', cue: /charge|invoice|refund|payment|bill|subscription/ },
  { label: 'technical support', cue: /install|setup|configure|slow|timeout/ },
  { label: 'sales inquiry', cue: /pricing|quote|demo|purchase|upgrade/ },
  { label: 'product feedback', cue: /feedback|suggest|feature|wish|love/ },
  { label: 'bug report', cue: /bug|crash|error|broken/ },
  { label: 'account access', cue: /password|login|locked|access|sign in/ },
  { label: 'partnership', cue: /partner|reseller|affiliate/ },
  { label: 'spam', cue: /unsubscribe|lottery|winner/ },
];

/** Made-up sources of research: authors, venues and title openings. */
export const AUTHORS: readonly string[] = [
  'Okafor, N.',
  'Lindqvist, E.',
  'Moreau, C.',
  'Tanaka, H.',
  'Alvarez, R.',
  'Brennan, S.',
  'Kowalski, M.',
  'Haddad, L.',
  'Nguyen, T.',
  'Fischer, J.',
];
export const VENUES: readonly string[] = [
  'Journal of Applied Analytics',
  'Harvard Business Review',
  'MIT Sloan Management Review',
  'Proceedings of the ACM Conference on Information Systems',
  'OECD Policy Papers',
  'McKinsey Quarterly',
  'Journal of Operations Management',
];
export const TITLE_OPENINGS: readonly string[] = [
  'Measuring',
  'Rethinking',
  'The economics of',
  'A field study of',
  'Lessons from',
  'What drives',
];

/** Headlines of copywriting: `{K}` a key word, capitalised. */
export const HEADLINES: readonly string[] = [
  '{K}, without the busywork',
  'Meet the smarter way to handle {k}',
  '{K} that works as hard as you do',
  'Your {k}, finally in one place',
  'Less effort, better {k}',
];
export const CALLS_TO_ACTION: readonly string[] = [
  'Start your free trial today.',
  'Book a demo with our team.',
  'See it in action.',
  'Get started in minutes.',
];

/** Verbs that open a step of a plan. */
export const STEP_VERBS: readonly string[] = [
  'Review',
  'Define',
  'Agree on',
  'Draft',
  'Test',
  'Roll out',
  'Measure',
  'Document',
];

/** Severities of code review comments. */
export const SEVERITIES: readonly string[] = ['major', 'minor', 'nit', 'question'];

/** Values of extracted fields: kinds of value, cycled over the description's key words. */
export const COMPANIES: readonly string[] = ['Northwind Traders', 'Blue Harbor Ltd', 'Acme Robotics', 'Globex Corp'];
