import type { Settings } from '../../../src-shared/ipc-contract.js';
import { bool, languageCode, noPayload, nullableInt, num, oneOf, payload } from '../validate.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

type SettingsPatch = Partial<Omit<Settings, 'activeProfileId'>>;

export function settingsHandlers(ctx: HandlerContext): DomainHandlers<'settings'> {
  return {
    'settings:get': async (request) => {
      noPayload(request);
      return ctx.settings.settings();
    },
    'settings:update': async (request) => {
      const o = payload(request, ['uiLanguage', 'defaults', 'playbackRate', 'notifications']);
      const patch: SettingsPatch = {};
      if (o.uiLanguage !== undefined) patch.uiLanguage = oneOf(o.uiLanguage, 'uiLanguage', ['en', 'ja'] as const);
      if (o.playbackRate !== undefined) patch.playbackRate = num(o.playbackRate, 'playbackRate', 0.25, 4);
      if (o.notifications !== undefined) patch.notifications = bool(o.notifications, 'notifications');
      if (o.defaults !== undefined) {
        const d = payload(o.defaults, ['language', 'model', 'numSpeakers'], 'defaults');
        const current = ctx.settings.settings().defaults;
        patch.defaults = {
          language: d.language === undefined ? current.language : d.language === null ? null : languageCode(d.language, 'defaults.language'),
          model: d.model === undefined ? current.model : oneOf(d.model, 'defaults.model', ['default', 'diarization-high'] as const),
          numSpeakers: d.numSpeakers === undefined ? current.numSpeakers : nullableInt(d.numSpeakers, 'defaults.numSpeakers', 1, 99),
        };
      }
      return ctx.settings.updateSettings(patch);
    },
  };
}
