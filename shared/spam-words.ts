// Words and phrases that spam filters and tired editors flag, as hints while a
// pitch is written (never a block). The one list: edit it here.
export const SPAM_WORDS = [
  '100%', '$$$', 'act now', 'amazing', 'apply now', 'as seen on', 'best price', 'bonus', 'buy now', 'call now', 'cash', 'cheap',
  'click here', 'click below', 'congratulations', 'deal', 'discount', 'double your', 'earn', 'exclusive deal', 'expires', 'extra income',
  'fast cash', 'for free', 'free', 'get it now', 'giveaway', 'guarantee', 'guaranteed', 'incredible', 'instant', 'limited time',
  'lowest price', 'make money', 'miracle', 'no catch', 'no cost', 'no obligation', 'offer', 'once in a lifetime', 'order now',
  'promise you', 'prize', 'risk-free', 'risk free', 'sale', 'save big', 'special promotion', 'this is not spam', 'unbelievable',
  'unlimited', 'urgent', 'what are you waiting for', 'winner', 'win', 'you have been selected', 'act immediately', 'do not delete',
  'revolutionary', 'game-changer', 'game changer', 'cutting-edge',
] as const;
