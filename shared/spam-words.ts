// Words and phrases that spam filters and tired editors flag, shown as hints
// while a pitch is written (never a block). The one list: edit it here.
// Matching ignores case, takes whole words only, and treats a space and a
// hyphen in a phrase alike ("risk-free" also finds "risk free"); a word inside
// a hyphenated compound is not flagged ("gluten-free").
export const SPAM_WORDS = [
  '100%', '$$$', 'act now', 'act immediately', 'amazing', 'apply now', 'as seen on', 'best price', 'best-in-class', 'bonus', 'buy now',
  'call now', 'cash', 'cheap', 'click below', 'click here', 'congratulations', 'cutting-edge', 'dear friend', 'discount', 'do not delete',
  "don't miss out", 'double your', 'earn extra', 'earn money', 'exclusive deal', 'extra income', 'fast cash', 'for free', 'free', 'game-changer',
  'get it now', 'giveaway', 'groundbreaking', 'guarantee', 'guaranteed', 'hurry', 'incredible deal', 'industry-leading', 'instant access',
  'limited time', 'lowest price', 'make money', 'miracle', 'no catch', 'no cost', 'no obligation', 'no strings attached', 'offer expires',
  'once in a lifetime', 'order now', 'prize', 'promise you', 'revolutionary', 'risk-free', 'save big', 'special offer', 'special promotion',
  'this is not spam', 'unbelievable', 'unlimited', 'urgent', 'what are you waiting for', 'while supplies last', 'winner', 'world-class',
  'you have been selected',
] as const;

/** Everyday phrases that hold a listed word but are not spam ("feel free to reach out"): never flagged. */
export const SPAM_WORD_EXCEPTIONS = ['feel free'] as const;
