import type { NewBlueprint } from '../src/index.ts';

const bp = (
  title: string,
  summary: string,
  tags: string[],
  steps = `1. ${title}.\n2. Check the result.`,
): NewBlueprint => ({ title, summary, steps, tags });

/** 52 blueprints over distinct tasks, to test ranking. */
export const FIXTURE_BLUEPRINTS: NewBlueprint[] = [
  bp('Publish the monthly newsletter', 'Draft, review and send the newsletter to subscribers.', [
    'newsletter',
    'email',
    'marketing',
  ]),
  bp('Onboard a new employee', 'Accounts, laptop, first-week schedule for a new hire.', ['hr', 'onboarding']),
  bp('Rotate database credentials', 'Create new database passwords and roll them out without downtime.', [
    'security',
    'database',
  ]),
  bp('Prepare the quarterly sales report', 'Collect revenue by region and chart it for the board.', [
    'sales',
    'report',
    'finance',
  ]),
  bp('Deploy the web app to production', 'Build, run migrations, deploy and smoke-test the web app.', [
    'deploy',
    'release',
  ]),
  bp('Roll back a failed deployment', 'Return production to the previous release quickly.', [
    'deploy',
    'incident',
  ]),
  bp('Handle a customer refund', 'Check the order, issue the refund and notify the customer.', [
    'support',
    'billing',
  ]),
  bp('Plan a team offsite', 'Venue, agenda, travel and budget for a team offsite.', ['events', 'team']),
  bp('Renew the TLS certificates', 'Renew and install TLS certificates before they expire.', [
    'security',
    'tls',
    'certificates',
  ]),
  bp('Write release notes', 'Group merged changes into features, fixes and breaking changes.', [
    'release',
    'docs',
  ]),
  bp('Triage incoming bug reports', 'Label, prioritise and assign new bug reports each morning.', [
    'bugs',
    'triage',
  ]),
  bp('Reset a user password', 'Verify identity and send a password reset link.', ['support', 'accounts']),
  bp('Back up the production database', 'Take and verify a full backup of the production database.', [
    'database',
    'backup',
  ]),
  bp('Restore a database backup', 'Restore a backup into a fresh instance and check the data.', [
    'database',
    'backup',
    'restore',
  ]),
  bp('Run the payroll', 'Check hours, approve payslips and submit the monthly payroll.', [
    'hr',
    'payroll',
    'finance',
  ]),
  bp('File the VAT return', 'Gather invoices and submit the quarterly VAT return.', ['finance', 'tax']),
  bp('Book business travel', 'Flights, hotel and expenses policy for a business trip.', ['travel']),
  bp('Interview a candidate', 'Prepare questions, run the interview and write feedback.', ['hiring', 'hr']),
  bp('Write a job posting', 'Describe the role, requirements and benefits for a new opening.', ['hiring']),
  bp('Set up a new laptop', 'Install the standard tools and security settings on a new laptop.', [
    'it',
    'onboarding',
  ]),
  bp(
    'Investigate a production outage',
    'Gather logs and metrics, find the cause, write the incident report.',
    ['incident', 'ops'],
  ),
  bp('Write a postmortem', 'Blameless write-up of an incident with causes and actions.', [
    'incident',
    'docs',
  ]),
  bp('Update the pricing page', 'Change prices on the website and check the checkout.', [
    'website',
    'pricing',
  ]),
  bp('Launch a marketing campaign', 'Audience, channels, creatives and tracking for a campaign.', [
    'marketing',
    'campaign',
  ]),
  bp('Prepare a board meeting', 'Agenda, slides and pre-read for the board meeting.', ['board', 'finance']),
  bp('Close the books at month end', 'Reconcile accounts and close the monthly books.', [
    'finance',
    'accounting',
  ]),
  bp('Migrate email to a new provider', 'Move mailboxes and DNS records to a new email provider.', [
    'email',
    'it',
    'dns',
  ]),
  bp('Configure DNS for a new domain', 'Add the records for web, email and verification.', ['dns', 'domain']),
  bp('Run a security audit', 'Review access, dependencies and configurations for risks.', [
    'security',
    'audit',
  ]),
  bp('Respond to a data subject request', 'Find, export or delete personal data under GDPR.', [
    'privacy',
    'gdpr',
    'legal',
  ]),
  bp('Review a contract', 'Check terms, liabilities and renewal dates of a contract.', [
    'legal',
    'contracts',
  ]),
  bp('Order office supplies', 'Check stock and order paper, coffee and other supplies.', ['office']),
  bp('Organise a product demo', 'Script, environment and follow-up for a customer demo.', ['sales', 'demo']),
  bp('Qualify a sales lead', 'Budget, authority, need and timing of a new lead.', ['sales', 'leads']),
  bp('Write a blog post', 'Outline, draft, edit and publish a post on the company blog.', [
    'content',
    'marketing',
  ]),
  bp('Translate the user interface', 'Extract strings, translate and review a new language.', [
    'i18n',
    'product',
  ]),
  bp('Run user research interviews', 'Recruit users, interview them and synthesise findings.', [
    'research',
    'product',
  ]),
  bp('Plan a sprint', 'Pick backlog items, estimate them and set the sprint goal.', ['agile', 'planning']),
  bp('Run a retrospective', 'What went well, what did not, and actions for the team.', ['agile', 'team']),
  bp('Upgrade Node.js in the services', 'Move every service to the new Node.js version and test.', [
    'engineering',
    'upgrade',
  ]),
  bp('Add a new API endpoint', 'Design, implement, document and test a new HTTP endpoint.', [
    'engineering',
    'api',
  ]),
  bp('Set up monitoring alerts', 'Define metrics, thresholds and who gets paged.', ['ops', 'monitoring']),
  bp('Scale the database', 'Add read replicas and tune queries under load.', ['database', 'performance']),
  bp('Clean up cloud costs', 'Find idle resources and reserved capacity savings.', ['finance', 'cloud']),
  bp('Offboard an employee', 'Revoke access, collect equipment and final pay.', [
    'hr',
    'offboarding',
    'security',
  ]),
  bp('Process supplier invoices', 'Match invoices to orders and schedule payments.', [
    'finance',
    'accounting',
  ]),
  bp('Publish a podcast episode', 'Edit audio, write show notes and publish the episode.', [
    'content',
    'podcast',
  ]),
  bp('Moderate community forum posts', 'Review flagged posts and apply the community rules.', [
    'community',
    'support',
  ]),
  bp('Run the annual performance reviews', 'Self reviews, manager reviews and calibration.', [
    'hr',
    'reviews',
  ]),
  bp('Prepare a conference talk', 'Abstract, slides and rehearsal for a conference talk.', [
    'events',
    'speaking',
  ]),
  bp('Set up continuous integration', 'Pipelines that lint, test and build every change.', [
    'engineering',
    'ci',
  ]),
  bp('Archive old projects', 'Export, archive and remove access to finished projects.', ['it', 'archive']),
];

/** Queries with the blueprint they should rank first (by title). */
export const RANKING: [query: string, expectedTop: string][] = [
  ['send the newsletter to our subscribers', 'Publish the monthly newsletter'],
  ['our TLS certificate expires next week', 'Renew the TLS certificates'],
  ['we had an outage in production last night', 'Investigate a production outage'],
  ['deploy to prod', 'Deploy the web app to production'],
  ['a customer wants their money back', 'Handle a customer refund'],
  ['restore last night backup', 'Restore a database backup'],
  ['quarterly sales numbers for the board', 'Prepare the quarterly sales report'],
  ['write the relese notes', 'Write release notes'],
  ['gdpr request to delete my data', 'Respond to a data subject request'],
  ['new hire starts monday', 'Onboard a new employee'],
];
