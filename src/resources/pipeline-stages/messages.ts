// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const stageMessages = defineMessages({
  'stage.unknown_reference': {
    en: 'No active pipeline stage has this id.',
    nl: 'Er is geen actieve pipelinefase met dit id.',
    de: 'Keine aktive Pipeline-Phase hat diese ID.',
    fr: 'Aucune étape active du pipeline n’a cet identifiant.',
  },
  'stage.unknown_reference_of_type': {
    en: 'No active pipeline stage of type {type} has this id.',
    nl: 'Er is geen actieve pipelinefase van het type {type} met dit id.',
    de: 'Keine aktive Pipeline-Phase vom Typ {type} hat diese ID.',
    fr: 'Aucune étape active du pipeline de type {type} n’a cet identifiant.',
  },
  'stage.none_of_type': {
    en: 'The pipeline has no active stage of type {type}.',
    nl: 'De pipeline heeft geen actieve fase van het type {type}.',
    de: 'Die Pipeline hat keine aktive Phase vom Typ {type}.',
    fr: 'Le pipeline n’a aucune étape active de type {type}.',
  },
  'stage.no_default': {
    en: 'The pipeline has no active default stage; send a stage_id.',
    nl: 'De pipeline heeft geen actieve standaardfase; stuur een stage_id mee.',
    de: 'Die Pipeline hat keine aktive Standardphase; senden Sie eine stage_id.',
    fr: 'Le pipeline n’a aucune étape par défaut active ; envoyez un stage_id.',
  },
} as const);
