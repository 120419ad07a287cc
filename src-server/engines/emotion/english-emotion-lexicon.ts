// A small hand-written English emotion lexicon (authored for Kikitori, MIT like the rest of the
// repository). It is not used to score text directly: text-features.ts adds one pooled feature per
// category ("LEX_anger", or "LEX_NOT_anger" in a negation scope) for every lexicon word in a text,
// and the classifier learns the weight of each category from GoEmotions. Words that are rare in the
// training data ("furious", "livid", "petrified") then borrow the strength of their category
// instead of depending on a handful of noisy examples.
//
// Forms are listed explicitly (no stemmer); the lexicon is matched against tokenize() output, so
// entries are lowercase, without apostrophes, with letter runs capped at two ("eww").
import type { EmotionLabel } from '../../../src-shared/analysis.js';

type Category = Exclude<EmotionLabel, 'neutral'>;

const WORDS: Record<Category, string> = {
  anger: `
    angry angrier angriest angrily anger angered angers mad madder furious furiously fury rage raging
    rages enraged enraging livid irate outraged outrage outraging pissed annoyed annoying annoys annoy
    annoyance irritated irritating irritates irritation infuriating infuriated infuriates hate hated
    hates hating hatred resent resented resentment resentful frustrated frustrating frustration hostile
    fuming seething wrath vengeful aggravated aggravating exasperated exasperating indignant incensed
    bitter`,
  disgust: `
    disgusting disgusted disgust disgusts gross grossed nasty revolting revolted repulsive repulsed
    repugnant vile sickening sickened nauseating nauseated yuck yuk ew eww gag gagging filthy foul
    appalling appalled abhorrent despicable icky loathe loathed loathing loathsome distasteful cringe
    cringey cringy cringeworthy sleazy horrid slimy putrid rancid`,
  fear: `
    afraid scared scary scare scares scaring frightened frightening fright frighten terrified terrifying
    terrifies terror fear fears feared fearful fearing horrified horrifying horror panic panicked
    panicking panicky anxious anxiety anxieties nervous nervously nervousness worried worry worrying
    worries dread dreading dreaded petrified alarmed alarming spooked spooky creepy uneasy threatened
    intimidated intimidating paranoid phobia freaked shaking trembling apprehensive
    uneasiness dreadful`,
  joy: `
    happy happier happiest happily happiness glad gladly joy joyful joyous delighted delight delightful
    pleased pleasure cheerful excited exciting excitement thrilled thrilling grateful gratitude thankful
    thanks thank love loved loves loving lovely wonderful awesome fantastic excellent glorious proud
    pride relieved relief enjoy enjoyed enjoying enjoys fun funny hilarious lol lmao haha hahaha laugh
    laughing laughed yay hooray congrats congratulations blessed ecstatic elated content satisfied
    optimistic hopeful smile smiling adore adorable beautiful brilliant perfect great amazing
    appreciate appreciated cheers`,
  sadness: `
    sad sadder saddest sadly sadness unhappy depressed depressing depression miserable misery heartbroken
    heartbreaking heartbreak grief grieving grieve mourn mourning sorrow sorrowful cry crying cried cries
    tears tearful upset lonely loneliness hurt hurts hurting painful miss missed gloomy despair hopeless
    devastated devastating disappointed disappointing disappointment sorry regret regrets regretted
    regretting ashamed shame embarrassed embarrassing guilty guilt tragic tragedy unfortunately
    unfortunate sob sobbing melancholy bummed gutted crushed`,
  surprise: `
    surprised surprise surprising surprisingly shocked shocking shock astonished astonishing amazed
    astounded astounding stunned wow whoa woah omg unexpected unexpectedly unbelievable speechless
    startled confused confusing confusion curious wondering realize realized realised suddenly
    mindblown`,
};

/** Word -> its categories. */
export const ENGLISH_EMOTION_LEXICON: ReadonlyMap<string, readonly Category[]> = (() => {
  const map = new Map<string, Category[]>();
  for (const [category, words] of Object.entries(WORDS) as Array<[Category, string]>) {
    for (const word of words.split(/\s+/)) {
      if (word === '') continue;
      const list = map.get(word) ?? [];
      if (!list.includes(category)) list.push(category);
      map.set(word, list);
    }
  }
  return map;
})();
