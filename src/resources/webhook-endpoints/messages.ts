// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/messages.ts';

export const webhookMessages = defineMessages({
  'webhook.endpoint_not_found': {
    en: 'No webhook endpoint with this id exists.',
    nl: 'Er bestaat geen webhook-endpoint met dit id.',
    de: 'Es gibt keinen Webhook-Endpunkt mit dieser ID.',
    fr: 'Aucun endpoint de webhook n’a cet identifiant.',
  },
  'webhook.endpoint_limit': {
    en: 'A company can have at most {max} webhook endpoints; delete one first.',
    nl: 'Een bedrijf kan hoogstens {max} webhook-endpoints hebben; verwijder er eerst een.',
    de: 'Ein Unternehmen kann höchstens {max} Webhook-Endpunkte haben; löschen Sie zuerst einen.',
    fr: 'Une entreprise peut avoir au plus {max} endpoints de webhook ; supprimez-en d’abord un.',
  },
  'webhook.test_rate_limited': {
    en: 'At most 10 test messages per endpoint per minute.',
    nl: 'Hoogstens 10 testberichten per endpoint per minuut.',
    de: 'Höchstens 10 Testnachrichten pro Endpunkt und Minute.',
    fr: 'Au plus 10 messages de test par endpoint et par minute.',
  },
  'webhook.endpoint_disabled': {
    en: 'The webhook endpoint is disabled; re-enable it (status active) first.',
    nl: 'Het webhook-endpoint is uitgeschakeld; schakel het eerst weer in (status active).',
    de: 'Der Webhook-Endpunkt ist deaktiviert; aktivieren Sie ihn zuerst wieder (Status active).',
    fr: 'L’endpoint de webhook est désactivé ; réactivez-le d’abord (statut active).',
  },
  'webhook.event_not_receivable': {
    en: 'The endpoint may no longer receive this event: its events were chosen again by a key that cannot read it.',
    nl: 'Het endpoint mag dit event niet meer ontvangen: zijn events zijn opnieuw gekozen door een sleutel die het niet mag lezen.',
    de: 'Der Endpunkt darf dieses Ereignis nicht mehr empfangen: Seine Ereignisse wurden von einem Schlüssel neu gewählt, der es nicht lesen darf.',
    fr: 'L’endpoint ne peut plus recevoir cet événement : ses événements ont été choisis de nouveau par une clé qui ne peut pas le lire.',
  },
  'webhook.delivery_not_found': {
    en: 'This endpoint has no delivery with this id (deliveries are kept 30 days).',
    nl: 'Dit endpoint heeft geen bezorging met dit id (bezorgingen worden 30 dagen bewaard).',
    de: 'Dieser Endpunkt hat keine Zustellung mit dieser ID (Zustellungen werden 30 Tage aufbewahrt).',
    fr: 'Cet endpoint n’a aucun envoi avec cet identifiant (les envois sont conservés 30 jours).',
  },
  'webhook.event_listed_twice': {
    en: '{type} is listed twice.',
    nl: '{type} staat er twee keer in.',
    de: '{type} ist doppelt aufgeführt.',
    fr: '{type} figure deux fois.',
  },
  'webhook.star_not_alone': {
    en: '"*" cannot be combined with other types.',
    nl: '"*" kan niet met andere typen worden gecombineerd.',
    de: '"*" kann nicht mit anderen Typen kombiniert werden.',
    fr: '"*" ne peut pas être combiné avec d’autres types.',
  },
  'webhook.star_needs_scope': {
    en: 'This key may read no events; "*" needs {scopes}.',
    nl: 'Deze sleutel mag geen events lezen; "*" vereist {scopes}.',
    de: 'Dieser Schlüssel darf keine Ereignisse lesen; "*" erfordert {scopes}.',
    fr: 'Cette clé ne peut lire aucun événement ; "*" nécessite {scopes}.',
  },
  'webhook.url_change_needs_scope': {
    en: 'This endpoint receives events that need the scope {scope}: pointing it at another URL needs that scope too, or choose its `events` again in the same request.',
    nl: 'Dit endpoint ontvangt events waarvoor de scope {scope} nodig is: voor het wijzigen van de URL is die scope ook nodig, of kies in hetzelfde verzoek opnieuw de `events`.',
    de: 'Dieser Endpunkt empfängt Ereignisse, die den Scope {scope} erfordern: Um seine URL zu ändern, ist dieser Scope ebenfalls erforderlich, oder wählen Sie in derselben Anfrage die `events` neu.',
    fr: 'Ce point de terminaison reçoit des événements qui nécessitent la portée {scope} : changer son URL nécessite aussi cette portée, ou choisissez à nouveau ses `events` dans la même requête.',
  },
  'webhook.event_needs_scope': {
    en: 'Receiving {type} needs the scope {scopes}.',
    nl: 'Voor het ontvangen van {type} is de scope {scopes} nodig.',
    de: 'Für den Empfang von {type} ist der Scope {scopes} erforderlich.',
    fr: 'La réception de {type} nécessite la portée {scopes}.',
  },
  'webhook.since_too_old': {
    en: 'Must be at most {days} days ago.',
    nl: 'Mag hoogstens {days} dagen geleden zijn.',
    de: 'Darf höchstens {days} Tage zurückliegen.',
    fr: 'Ne doit pas remonter à plus de {days} jours.',
  },
  'webhook.until_before_since': {
    en: 'Must be after since.',
    nl: 'Moet na since liggen.',
    de: 'Muss nach since liegen.',
    fr: 'Doit être postérieur à since.',
  },
  'webhook.since_in_future': {
    en: 'Must not be in the future.',
    nl: 'Mag niet in de toekomst liggen.',
    de: 'Darf nicht in der Zukunft liegen.',
    fr: 'Ne doit pas être dans le futur.',
  },
} as const);
