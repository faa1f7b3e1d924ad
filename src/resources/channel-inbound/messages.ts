// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const channelInboundMessages = defineMessages({
  'channel_inbound.verify_token_unknown': {
    en: 'No company’s WhatsApp settings have this verify token; check the token entered in the Meta app dashboard.',
    nl: 'Geen enkel bedrijf heeft dit verificatietoken in zijn WhatsApp-instellingen; controleer het token in het Meta-appdashboard.',
    de: 'Kein Unternehmen hat dieses Verifizierungstoken in seinen WhatsApp-Einstellungen; prüfen Sie das im Meta-App-Dashboard eingegebene Token.',
    fr: 'Aucune entreprise n’a ce jeton de vérification dans ses paramètres WhatsApp ; vérifiez le jeton saisi dans le tableau de bord de l’application Meta.',
  },
  'channel_inbound.bad_signature': {
    en: 'The X-Hub-Signature-256 header is missing or is not the signature of this body with the app secret of the WhatsApp number. Nothing was stored.',
    nl: 'De header X-Hub-Signature-256 ontbreekt of is niet de handtekening van deze body met het app-geheim van het WhatsApp-nummer. Er is niets opgeslagen.',
    de: 'Der Header X-Hub-Signature-256 fehlt oder ist nicht die Signatur dieses Bodys mit dem App-Geheimnis der WhatsApp-Nummer. Es wurde nichts gespeichert.',
    fr: 'L’en-tête X-Hub-Signature-256 est absent ou n’est pas la signature de ce corps avec le secret d’application du numéro WhatsApp. Rien n’a été enregistré.',
  },
  'channel_inbound.unknown_number': {
    en: 'The body names no WhatsApp phone-number id of a company (entry[].changes[].value.metadata.phone_number_id). Nothing was stored.',
    nl: 'De body noemt geen WhatsApp-telefoonnummer-id van een bedrijf (entry[].changes[].value.metadata.phone_number_id). Er is niets opgeslagen.',
    de: 'Der Body nennt keine WhatsApp-Telefonnummern-ID eines Unternehmens (entry[].changes[].value.metadata.phone_number_id). Es wurde nichts gespeichert.',
    fr: 'Le corps ne contient aucun identifiant de numéro WhatsApp d’une entreprise (entry[].changes[].value.metadata.phone_number_id). Rien n’a été enregistré.',
  },
  'channel_inbound.secret_missing': {
    en: 'Send the company’s inbound email secret as "Authorization: Bearer ibs_…" (or as the password of Basic authentication). Nothing was stored.',
    nl: 'Stuur het inkomende-e-mailgeheim van het bedrijf als "Authorization: Bearer ibs_…" (of als wachtwoord van Basic-authenticatie). Er is niets opgeslagen.',
    de: 'Senden Sie das Geheimnis für eingehende E-Mails des Unternehmens als "Authorization: Bearer ibs_…" (oder als Passwort der Basic-Authentifizierung). Es wurde nichts gespeichert.',
    fr: 'Envoyez le secret d’e-mail entrant de l’entreprise sous la forme "Authorization: Bearer ibs_…" (ou comme mot de passe de l’authentification Basic). Rien n’a été enregistré.',
  },
  'channel_inbound.secret_unknown': {
    en: 'This inbound email secret is no company’s (it may have been replaced by a new one). Nothing was stored.',
    nl: 'Dit inkomende-e-mailgeheim hoort bij geen enkel bedrijf (het is misschien vervangen door een nieuw). Er is niets opgeslagen.',
    de: 'Dieses Geheimnis für eingehende E-Mails gehört zu keinem Unternehmen (es wurde vielleicht durch ein neues ersetzt). Es wurde nichts gespeichert.',
    fr: 'Ce secret d’e-mail entrant n’appartient à aucune entreprise (il a peut-être été remplacé par un nouveau). Rien n’a été enregistré.',
  },
  'channel_inbound.email_sender_too_long': {
    en: 'The email’s sender address (From) is longer than the 254 characters an address can have; nothing was stored.',
    nl: 'Het afzenderadres (From) van de e-mail is langer dan de 254 tekens die een adres mag hebben; er is niets opgeslagen.',
    de: 'Die Absenderadresse (From) der E-Mail ist länger als die 254 Zeichen, die eine Adresse haben darf; es wurde nichts gespeichert.',
    fr: 'L’adresse d’expéditeur (From) de l’e-mail dépasse les 254 caractères qu’une adresse peut avoir ; rien n’a été enregistré.',
  },
  'channel_inbound.email_too_complex': {
    en: 'The email has more MIME parts (at most 1 000) or larger headers (at most 1 MB per part) than are read; nothing was stored.',
    nl: 'De e-mail heeft meer MIME-delen (hoogstens 1 000) of grotere headers (hoogstens 1 MB per deel) dan gelezen worden; er is niets opgeslagen.',
    de: 'Die E-Mail hat mehr MIME-Teile (höchstens 1 000) oder größere Header (höchstens 1 MB pro Teil), als gelesen werden; es wurde nichts gespeichert.',
    fr: 'L’e-mail a plus de parties MIME (au plus 1 000) ou des en-têtes plus grands (au plus 1 Mo par partie) que ce qui est lu ; rien n’a été enregistré.',
  },
  'channel_inbound.email_without_sender': {
    en: 'The email has no sender address (From) to answer; nothing was stored.',
    nl: 'De e-mail heeft geen afzenderadres (From) om op te antwoorden; er is niets opgeslagen.',
    de: 'Die E-Mail hat keine Absenderadresse (From), auf die geantwortet werden kann; es wurde nichts gespeichert.',
    fr: 'L’e-mail n’a pas d’adresse d’expéditeur (From) à laquelle répondre ; rien n’a été enregistré.',
  },
  'channel_inbound.invalid_webhook_json': {
    en: 'The body is not a JSON object of the WhatsApp Cloud API.',
    nl: 'De body is geen JSON-object van de WhatsApp Cloud API.',
    de: 'Der Body ist kein JSON-Objekt der WhatsApp Cloud API.',
    fr: 'Le corps n’est pas un objet JSON de l’API WhatsApp Cloud.',
  },
});
