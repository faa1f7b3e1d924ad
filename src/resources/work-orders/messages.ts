// The problem texts of work orders and their photos, in the four languages (see src/http/messages.ts).
import { defineMessages } from '../../http/message-catalogue.ts';

export const workOrderMessages = defineMessages({
  'work_order.not_found': {
    en: 'No work order with this id exists.',
    nl: 'Er bestaat geen werkbon met dit id.',
    de: 'Es gibt keinen Arbeitsauftrag mit dieser ID.',
    fr: 'Aucun bon d’intervention n’a cet identifiant.',
  },
  'work_order.not_editable': {
    en: 'A work order that is {status} cannot be changed; reopen a completed one first.',
    nl: 'Een werkbon met de status {status} kan niet worden gewijzigd; heropen een afgeronde werkbon eerst.',
    de: 'Ein Arbeitsauftrag mit dem Status {status} kann nicht geändert werden; öffnen Sie einen abgeschlossenen zuerst wieder.',
    fr: 'Un bon d’intervention au statut {status} ne peut pas être modifié ; rouvrez d’abord un bon terminé.',
  },
  'work_order.cannot_delete': {
    en: 'Only a draft or cancelled work order can be deleted; this work order is {status}.',
    nl: 'Alleen een concept- of geannuleerde werkbon kan worden verwijderd; deze werkbon heeft de status {status}.',
    de: 'Nur ein entworfener oder stornierter Arbeitsauftrag kann gelöscht werden; dieser hat den Status {status}.',
    fr: 'Seul un bon d’intervention brouillon ou annulé peut être supprimé ; celui-ci a le statut {status}.',
  },
  'work_order.transition_refused': {
    en: 'A work order that is {from} cannot become {to}.',
    nl: 'Een werkbon met de status {from} kan niet naar {to}.',
    de: 'Ein Arbeitsauftrag mit dem Status {from} kann nicht zu {to} werden.',
    fr: 'Un bon d’intervention au statut {from} ne peut pas passer à {to}.',
  },
  'work_order.required_unchecked': {
    en: 'Required checklist points are not checked yet: {labels}.',
    nl: 'Verplichte punten van de checklist zijn nog niet afgevinkt: {labels}.',
    de: 'Pflichtpunkte der Checkliste sind noch nicht abgehakt: {labels}.',
    fr: 'Des points obligatoires de la liste de contrôle ne sont pas encore cochés : {labels}.',
  },
  'work_order.only_with_status': {
    en: 'This field can only be sent with the status {status}.',
    nl: 'Dit veld kan alleen met de status {status} worden meegestuurd.',
    de: 'Dieses Feld kann nur mit dem Status {status} gesendet werden.',
    fr: 'Ce champ ne peut être envoyé qu’avec le statut {status}.',
  },
  'work_order.appointment_unknown_reference': {
    en: 'No appointment of this customer has this id.',
    nl: 'Geen afspraak van deze klant heeft dit id.',
    de: 'Kein Termin dieses Kunden hat diese ID.',
    fr: 'Aucun rendez-vous de ce client n’a cet identifiant.',
  },
  'work_order.quote_unknown_reference': {
    en: 'No quote of this customer has this id.',
    nl: 'Geen offerte van deze klant heeft dit id.',
    de: 'Kein Angebot dieses Kunden hat diese ID.',
    fr: 'Aucun devis de ce client n’a cet identifiant.',
  },
  'work_order.invoice_unknown_reference': {
    en: 'No invoice of this customer has this id.',
    nl: 'Geen factuur van deze klant heeft dit id.',
    de: 'Keine Rechnung dieses Kunden hat diese ID.',
    fr: 'Aucune facture de ce client n’a cet identifiant.',
  },
  'work_order.already_signed': {
    en: 'This work order is signed already; a signature is not replaced.',
    nl: 'Deze werkbon is al ondertekend; een handtekening wordt niet vervangen.',
    de: 'Dieser Arbeitsauftrag ist bereits unterschrieben; eine Unterschrift wird nicht ersetzt.',
    fr: 'Ce bon d’intervention est déjà signé ; une signature n’est pas remplacée.',
  },
  'work_order.cannot_sign': {
    en: 'A work order that is {status} cannot be signed.',
    nl: 'Een werkbon met de status {status} kan niet worden ondertekend.',
    de: 'Ein Arbeitsauftrag mit dem Status {status} kann nicht unterschrieben werden.',
    fr: 'Un bon d’intervention au statut {status} ne peut pas être signé.',
  },
  'work_order.photo_kind': {
    en: 'The kind is one of before, after or other.',
    nl: 'Het soort is before, after of other.',
    de: 'Die Art ist before, after oder other.',
    fr: 'Le type est before, after ou other.',
  },
  'work_order.signed_in_future': {
    en: 'The time of signing cannot lie in the future.',
    nl: 'Het moment van ondertekenen kan niet in de toekomst liggen.',
    de: 'Der Zeitpunkt der Unterschrift kann nicht in der Zukunft liegen.',
    fr: 'Le moment de la signature ne peut pas être dans le futur.',
  },
  'work_order_photo.not_found': {
    en: 'This work order has no photo with this id.',
    nl: 'Deze werkbon heeft geen foto met dit id.',
    de: 'Dieser Arbeitsauftrag hat kein Foto mit dieser ID.',
    fr: 'Ce bon d’intervention n’a pas de photo avec cet identifiant.',
  },
  'work_order_photo.limit_reached': {
    en: 'A work order holds at most {max|one:# photo|other:# photos}; delete one first.',
    nl: 'Een werkbon heeft hooguit {max|one:# foto|other:# foto’s}; verwijder er eerst een.',
    de: 'Ein Arbeitsauftrag hat höchstens {max|one:# Foto|other:# Fotos}; löschen Sie zuerst eines.',
    fr: 'Un bon d’intervention compte au plus {max|one:# photo|other:# photos} ; supprimez-en d’abord une.',
  },
  'work_order_photo.closed': {
    en: 'The photos of a work order that is {status} cannot be changed.',
    nl: 'De foto’s van een werkbon met de status {status} kunnen niet worden gewijzigd.',
    de: 'Die Fotos eines Arbeitsauftrags mit dem Status {status} können nicht geändert werden.',
    fr: 'Les photos d’un bon d’intervention au statut {status} ne peuvent pas être modifiées.',
  },
});
