/**
 * Support-ticket complaints in five categories, written so that no complaint
 * contains its own category's words: a keyword search cannot classify them,
 * a reader has to. Shared by oolong-lite and nested.
 */
import { TaskGenerationError } from '../errors.js';
import type { Prng } from '../prng.js';

export const CATEGORIES = ['billing', 'shipping', 'account', 'defect', 'cancellation'] as const;
export type Category = (typeof CATEGORIES)[number];

/** How each category is named in questions. */
export const CATEGORY_LABELS: Record<Category, string> = {
  billing: 'billing (money taken, prices, statements)',
  shipping: 'shipping (orders not arriving or arriving wrong)',
  account: 'account access (getting into or controlling a profile)',
  defect: 'product defect (an item that does not work)',
  cancellation: 'cancellation (ending a plan or renewal)',
};

/** Words a keyword search would try for each category; a complaint never contains its own. */
export const CATEGORY_WORDS: Record<Category, readonly string[]> = {
  billing: ['billing', 'bill', 'invoice', 'charge', 'payment', 'pay', 'fee'],
  shipping: ['shipping', 'ship', 'deliver', 'package', 'parcel', 'courier', 'mail'],
  account: ['account', 'login', 'log in', 'password', 'sign in', 'sign-in'],
  defect: ['defect', 'broken', 'faulty', 'damage', 'malfunction', 'break'],
  cancellation: ['cancel', 'subscri', 'unsubscribe', 'terminate'],
};

export const COMPLAINTS: Record<Category, readonly string[]> = {
  billing: [
    'The amount taken from my card this month is double what we agreed.',
    'I see two identical deductions on my statement for a single order.',
    'Money left my bank for a plan I never chose.',
    'The total on my receipt does not match the price shown at checkout.',
    'You kept debiting my card after the free trial should have ended.',
    'Why did the monthly cost go up without any notice?',
    'I was taxed twice on the same purchase.',
    'My bank shows a debit from you that I cannot explain.',
    'The discount code was accepted but the full amount was still taken.',
    "Please explain the extra line item on this month's statement.",
  ],
  shipping: [
    'My order still has not reached my door after three weeks.',
    'The tracking page has said in transit since last Tuesday.',
    'The box was dropped at an address across town.',
    'Your carrier says the goods were handed over, but nothing came.',
    'Only half of the items I ordered turned up.',
    'The estimated arrival date keeps moving back every day.',
    'I chose express and it still took eleven days to get here.',
    'The order went back to the warehouse without anyone contacting me.',
    'Nobody can tell me where my order is right now.',
    'The box sat at the depot for a week before anyone moved it.',
  ],
  account: [
    'I cannot get into my profile even after resetting my passcode.',
    'The site keeps rejecting my credentials although they are correct.',
    'The two-step code never arrives on my phone, so I am stuck outside.',
    'Someone changed my username and the recovery address without me.',
    'After three wrong attempts I was locked out for good.',
    'The reset link in my inbox says it has expired every time I open it.',
    "My profile shows another person's name and orders.",
    'I cannot reach my dashboard since the latest update.',
    'The app throws me out every few minutes and asks me to identify myself again.',
    'I want to merge the two profiles I created by accident.',
  ],
  defect: [
    'The blender stopped spinning after two uses.',
    'The screen flickers and then goes black.',
    'One of the hinges snapped off on the first day.',
    'The power adapter gets hot and smells of burning plastic.',
    'The left earbud makes no sound at all.',
    'The zipper came apart the first time I closed the bag.',
    'The kettle leaks from the base whenever it is filled.',
    'Buttons on the remote only respond if pressed very hard.',
    'The battery drains from full to empty in under an hour.',
    'There is a crack along the glass straight out of the box.',
  ],
  cancellation: [
    'Please stop my plan at the end of this month.',
    'I no longer want the monthly box, so end it right away.',
    'How do I close my membership before the next renewal?',
    'Do not renew me next year.',
    'I would like to opt out of the recurring plan entirely.',
    'Turn off the automatic renewal and end my service.',
    'I am moving abroad and want to stop the service for good.',
    'Please make sure nothing renews after this period.',
    'I joined by mistake and want out of the plan.',
    'End my plan today and confirm by message.',
  ],
};

/** Sentences appended to some complaints; neutral across categories. */
export const FILLERS: readonly string[] = [
  '',
  '',
  'Thanks.',
  'Please help.',
  'This is the second time I am writing.',
  'I have been a customer for years.',
  'Any update would be appreciated.',
  'Kind regards.',
  'Hoping for a quick answer.',
];

/** The first of the category's keyword-search words that `text` contains, if any. */
export function containsCategoryWord(text: string, category: Category): string | undefined {
  const lower = text.toLowerCase();
  return CATEGORY_WORDS[category].find((word) => lower.includes(word));
}

/**
 * Enforce the paraphrase rule at generation time: throw when a ticket's text
 * contains its own category's words (a bug in the bank, caught before any run).
 */
export function assertParaphrase(text: string, category: Category, where: string): void {
  const word = containsCategoryWord(text, category);
  if (word !== undefined) {
    throw new TaskGenerationError(
      `${where} (${category}) contains its category's word "${word}", so a keyword search could classify it; reword the ticket bank`,
    );
  }
}

const complaintIndex = new Map<string, Category>();
for (const category of CATEGORIES) {
  for (const complaint of COMPLAINTS[category]) complaintIndex.set(complaint, category);
}

/**
 * The true category of a piece of ticket text: the category of the complaint
 * sentence it contains, or undefined when it contains none. This is the
 * answer key a scripted reader consults.
 */
export function categoryOfText(text: string): Category | undefined {
  for (const [complaint, category] of complaintIndex) {
    if (text.includes(complaint)) return category;
  }
  return undefined;
}

/** Parse a category name as a reader might write it (case, plurals, label text). */
export function parseCategory(text: string): Category | undefined {
  const word = text.trim().toLowerCase();
  for (const category of CATEGORIES) {
    if (word === category || word.startsWith(category)) return category;
  }
  if (word.startsWith('account access')) return 'account';
  if (word.startsWith('product defect')) return 'defect';
  return undefined;
}

/** One ticket's complaint: a paraphrase of the category, then a filler (possibly empty). */
export function complaintText(rng: Prng, category: Category): string {
  return `${rng.pick(COMPLAINTS[category])} ${rng.pick(FILLERS)}`.trim();
}
