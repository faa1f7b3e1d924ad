// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const quoteAttachmentMessages = defineMessages({
  'quote_attachment.quote_not_found': {
    en: 'No quote with this id exists.',
    nl: 'Er bestaat geen offerte met dit id.',
    de: 'Es gibt kein Angebot mit dieser ID.',
    fr: 'Aucun devis n’a cet identifiant.',
  },
  'quote_attachment.not_found': {
    en: 'This quote has no attachment with this id.',
    nl: 'Deze offerte heeft geen bijlage met dit id.',
    de: 'Dieses Angebot hat keinen Anhang mit dieser ID.',
    fr: 'Ce devis n’a pas de pièce jointe avec cet identifiant.',
  },
  'quote_attachment.limit_reached': {
    en: 'A quote holds at most {max|one:# attachment|other:# attachments}; delete one first.',
    nl: 'Een offerte heeft hooguit {max|one:# bijlage|other:# bijlagen}; verwijder er eerst een.',
    de: 'Ein Angebot hat höchstens {max|one:# Anhang|other:# Anhänge}; löschen Sie zuerst einen.',
    fr: 'Un devis compte au plus {max|one:# pièce jointe|other:# pièces jointes} ; supprimez-en d’abord une.',
  },
});
