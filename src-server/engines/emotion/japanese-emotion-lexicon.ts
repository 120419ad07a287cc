// A hand-written Japanese emotion lexicon (authored for Kikitori, MIT like the rest of the
// repository), read by japanese-emotion.ts.
//
// Keys are kuromoji (IPADIC) base forms (基本形) — "嬉しくない" is 嬉しく(嬉しい) + ない, so the
// key is 嬉しい — or, for expressions that span tokens, the surface forms of the leading tokens plus
// the base form of the last one: 腹 + が + 立っ(立つ) -> "腹が立つ", 頭 + に + き(来る) -> "頭に来る".
// Kana and kanji spellings are listed separately (no reading normalisation). 辛い is always read
// つらい by IPADIC (also when it means spicy, からい), hence its low weight.
//
// Syntax of the lists below: whitespace-separated entries, each `key` or `key*weight` (default 1).
// An entry in NEGATED only applies when the word is negated ("許せない" -> anger, "信じられない" ->
// surprise); its plain form carries no emotion unless it is also listed in WORDS.
import type { EmotionLabel } from '../../../src-shared/analysis.js';

export type EmotionCategory = Exclude<EmotionLabel, 'neutral'>;

export interface JapaneseLexiconEntry {
  /** Evidence when the word is used plainly. */
  plain: Partial<Record<EmotionCategory, number>>;
  /** Evidence when the word is negated; absent: the default rule of japanese-emotion.ts. */
  negated?: Partial<Record<EmotionCategory, number>>;
}

const WORDS: Record<EmotionCategory, string> = {
  joy: `
    嬉しい うれしい 嬉しがる 楽しい たのしい 楽しむ 楽しみ 喜ぶ よろこぶ 喜び 喜ばしい 幸せ しあわせ 幸福
    最高 素晴らしい すばらしい 素敵 すてき ステキ 好き 大好き 愛する 愛しい ありがたい 有難い ありがとう
    感謝 満足 安心 ほっと ホッと 笑う 笑顔 わくわく ワクワク うきうき ウキウキ 面白い おもしろい 感動
    感激 歓喜 誇らしい 光栄 おめでとう おめでたい 祝う 良かった よかった ハッピー ラッキー 快適 爽快
    愉快 癒す 癒やす 癒し 癒やし 晴れ晴れ 待ち遠しい 可愛い かわいい カワイイ 美しい 見事 助かる 恵まれる
    気持ちいい 気持ち良い 楽しめる 喜べる 胸が躍る 心が躍る すごい*0.5 凄い*0.5 やったー いいね*0.6`,
  anger: `
    怒る おこる 怒り 腹が立つ 腹立つ 腹立たしい むかつく ムカつく むかっと ムカッと いらいら イライラ
    苛立つ 苛々 頭に来る 頭にくる 憤る 憤慨 激怒 キレる ブチギレる ふざける 不満 不愉快 憎い 憎む
    憎らしい 憎しみ 恨む 恨み うざい ウザい うざったい うるさい*0.6 迷惑*0.7 最低*0.7 ひどい*0.7 酷い*0.7
    理不尽 不公平 失礼*0.7 生意気 けしからん 腹黒い*0.5 文句*0.6 喧嘩*0.6 ケンカ*0.6 逆ギレ 八つ当たり`,
  disgust: `
    嫌い きらい 大嫌い 嫌 嫌がる 気持ち悪い 気持ちわるい きもい キモい キモイ 気色悪い 汚い きたない 不潔
    吐き気 反吐 うんざり 軽蔑 嫌悪 醜い おぞましい 胸糞 胸くそ 虫酸が走る 虫唾が走る げんなり 下品 不快
    いやらしい 嫌らしい 忌々しい 臭い*0.7 くさい*0.7 汚らわしい ゲス 卑怯*0.7 えげつない 見苦しい`,
  fear: `
    怖い こわい 恐い 恐ろしい おそろしい 怖がる 恐れる 恐れ 恐怖 不安 心配 緊張*0.7 怯える おびえる 脅える
    びくびく ビクビク どきどき*0.5 ドキドキ*0.5 ぞっと ゾッと 危ない*0.6 危険*0.6 心細い 焦る*0.7 あせる*0.7
    震える*0.5 戦慄 パニック 悪夢 気がかり 懸念*0.7 不気味 薄気味悪い 怯む 恐る恐る 物騒 冷や汗`,
  sadness: `
    悲しい かなしい 悲しむ 悲しみ 哀しい 寂しい さみしい さびしい 淋しい 泣く 涙 辛い*0.6 つらい
    苦しい 切ない せつない 残念 落ち込む 凹む へこむ がっかり ガッカリ 失望 絶望 憂鬱 ゆううつ 後悔 悔しい
    くやしい 悔やむ 惜しい*0.6 傷つく 傷付く 孤独 悲惨 哀れ 可哀想 かわいそう 可哀相 気の毒 申し訳ない*0.6
    虚しい むなしい 痛い*0.5 亡くなる*0.8 恋しい 落胆 嘆く 悲観 しょんぼり 情けない 恥ずかしい*0.7
    心が痛む 胸が痛む 寂しがる 泣ける 号泣 失恋 ショック*0.6 無念 ため息*0.6 溜息*0.6`,
  surprise: `
    驚く おどろく 驚き びっくり ビックリ 意外 まさか 仰天 唖然 呆然 衝撃 思いがけない 予想外 想定外 不思議*0.7
    えっ*0.7 ええっ 驚異 突然*0.5 すごい*0.4 凄い*0.4 目を疑う 耳を疑う 驚かす 驚ける`,
};

const NEGATED: Record<EmotionCategory, string> = {
  joy: ``,
  // 許せない, 我慢できない / 我慢ならない, 気に食わない, 納得いかない / できない.
  anger: `許す 許せる 我慢 気に食う 気に入る*0.6 納得*0.6`,
  disgust: ``,
  fear: ``,
  sadness: `報われる`,
  // 信じられない, あり得ない
  surprise: `信じる 信じられる 有り得る あり得る ありえる`,
};

function parse(list: string): Array<[string, number]> {
  return list
    .split(/\s+/)
    .filter(Boolean)
    .map((item) => {
      const [key, weight] = item.split('*');
      return [key!, weight === undefined ? 1 : Number(weight)];
    });
}

export const JAPANESE_EMOTION_LEXICON: ReadonlyMap<string, JapaneseLexiconEntry> = (() => {
  const map = new Map<string, JapaneseLexiconEntry>();
  const entry = (key: string): JapaneseLexiconEntry => {
    let e = map.get(key);
    if (!e) map.set(key, (e = { plain: {} }));
    return e;
  };
  for (const [category, list] of Object.entries(WORDS) as Array<[EmotionCategory, string]>) {
    for (const [key, weight] of parse(list)) if (weight > 0) entry(key).plain[category] = weight;
  }
  for (const [category, list] of Object.entries(NEGATED) as Array<[EmotionCategory, string]>) {
    for (const [key, weight] of parse(list)) (entry(key).negated ??= {})[category] = weight;
  }
  return map;
})();

/** Multi-token keys are matched over at most this many tokens. */
export const MAX_KEY_TOKENS = 4;
