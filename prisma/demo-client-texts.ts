/**
 * The demo clients' names and descriptions in French, Italian, Spanish, Dutch and Polish, by client_id
 * (English and German are in prisma/demo-data.ts). A language without them shows the English ones.
 */
import type { Locale } from "@/lib/i18n/locales";

interface ClientText {
  name: string;
  description: string;
}

const demoClientTexts = {
  "demo-spa": {
    fr: {
      name: "Application monopage de démo",
      description: "Une application navigateur qui se connecte avec le flux du code d’autorisation et PKCE.",
    },
    it: {
      name: "App dimostrativa a pagina singola",
      description: "Un’app browser che accede con il flusso del codice di autorizzazione e PKCE.",
    },
    es: {
      name: "Aplicación de una sola página de demostración",
      description: "Una aplicación de navegador que inicia sesión con el flujo de código de autorización y PKCE.",
    },
    nl: {
      name: "Demo-single-page-app",
      description: "Een browserapp die inlogt met de authorization code flow en PKCE.",
    },
    pl: {
      name: "Demonstracyjna aplikacja jednostronicowa",
      description: "Aplikacja przeglądarkowa, która loguje się przepływem kodu autoryzacji z PKCE.",
    },
  },
  "demo-implicit": {
    fr: {
      name: "Application navigateur de démo (ancien procédé)",
      description: "Une application navigateur qui utilise encore le flux implicite.",
    },
    it: {
      name: "App browser dimostrativa (metodo precedente)",
      description: "Un’app browser che usa ancora il flusso implicito.",
    },
    es: {
      name: "Aplicación de navegador de demostración (método antiguo)",
      description: "Una aplicación de navegador que todavía usa el flujo implícito.",
    },
    nl: {
      name: "Demo-browserapp (oudere methode)",
      description: "Een browserapp die nog de implicit flow gebruikt.",
    },
    pl: {
      name: "Demonstracyjna aplikacja przeglądarkowa (starsza metoda)",
      description: "Aplikacja przeglądarkowa, która nadal korzysta z przepływu niejawnego (implicit flow).",
    },
  },
  "demo-native": {
    fr: {
      name: "Application de bureau de démo",
      description: "Une application de bureau pour opticiens qui reste connectée à la plateforme.",
    },
    it: {
      name: "App desktop dimostrativa",
      description: "Un’app desktop per ottici che resta connessa alla piattaforma.",
    },
    es: {
      name: "Aplicación de escritorio de demostración",
      description: "Una aplicación de escritorio para ópticos que permanece conectada a la plataforma.",
    },
    nl: {
      name: "Demo-desktopapp",
      description: "Een desktopapp voor opticiens die met het platform verbonden blijft.",
    },
    pl: {
      name: "Demonstracyjna aplikacja desktopowa",
      description: "Aplikacja desktopowa dla optyków, która pozostaje połączona z platformą.",
    },
  },
  "demo-web": {
    fr: {
      name: "Boutique en ligne de démo",
      description: "Une application web serveur d’un fournisseur de verres.",
    },
    it: {
      name: "Negozio online dimostrativo",
      description: "Un’applicazione web con server di un fornitore di lenti.",
    },
    es: {
      name: "Tienda en línea de demostración",
      description: "Una aplicación web con servidor de un proveedor de lentes.",
    },
    nl: {
      name: "Demo-webwinkel",
      description: "Een webapplicatie met server van een leverancier van brillenglazen.",
    },
    pl: {
      name: "Demonstracyjny sklep internetowy",
      description: "Serwerowa aplikacja webowa dostawcy soczewek okularowych.",
    },
  },
  "demo-authjs": {
    fr: {
      name: "Portail partenaire de démo",
      description: "Le portail d’un partenaire logiciel qui vous présente les catalogues de vos fournisseurs.",
    },
    it: {
      name: "Portale partner dimostrativo",
      description: "Il portale di un partner software che Le mostra i cataloghi dei Suoi fornitori.",
    },
    es: {
      name: "Portal de socios de demostración",
      description: "El portal de un socio de software que le muestra los catálogos de sus proveedores.",
    },
    nl: {
      name: "Demo-partnerportaal",
      description: "Het portaal van een softwarepartner dat u de catalogi van uw leveranciers toont.",
    },
    pl: {
      name: "Demonstracyjny portal partnerski",
      description: "Portal producenta oprogramowania, w którym widzisz katalogi swoich dostawców.",
    },
  },
  "demo-backend": {
    fr: {
      name: "Traitement par lots de démo",
      description: "Un service backend qui lit les catalogues et gère les inscriptions fournisseurs.",
    },
    it: {
      name: "Elaborazione batch dimostrativa",
      description: "Un servizio backend che legge i cataloghi e gestisce le registrazioni presso i fornitori.",
    },
    es: {
      name: "Proceso por lotes de demostración",
      description: "Un servicio de backend que lee catálogos y gestiona registros en proveedores.",
    },
    nl: {
      name: "Demo-batchjob",
      description: "Een backenddienst die catalogi leest en leveranciersregistraties beheert.",
    },
    pl: {
      name: "Demonstracyjne zadanie wsadowe",
      description: "Usługa backendowa, która odczytuje katalogi i zarządza rejestracjami u dostawców.",
    },
  },
  "praxissoft-termine": {
    fr: {
      name: "Praxissoft Rendez-vous",
      description: "Prise de rendez-vous pour opticiens, avec les catalogues des fournisseurs à portée de main.",
    },
    it: {
      name: "Praxissoft Appuntamenti",
      description: "Prenotazione di appuntamenti per ottici, con i cataloghi dei fornitori a portata di mano.",
    },
    es: {
      name: "Praxissoft Citas",
      description: "Reserva de citas para ópticos, con los catálogos de los proveedores al alcance de la mano.",
    },
    nl: {
      name: "Praxissoft Afspraken",
      description: "Afspraken plannen voor opticiens, met de catalogi van de leveranciers binnen handbereik.",
    },
    pl: {
      name: "Praxissoft Wizyty",
      description: "Rezerwacja wizyt dla optyków, z katalogami dostawców pod ręką.",
    },
  },
  "demo-device": {
    fr: {
      name: "Meuleuse de démo",
      description: "Une meuleuse de verres du magasin qui se connecte au nom de la personne au comptoir.",
    },
    it: {
      name: "Molatrice dimostrativa",
      description: "Una molatrice per lenti del negozio che accede per conto della persona al banco.",
    },
    es: {
      name: "Biseladora de demostración",
      description: "Una biseladora de lentes de la tienda que inicia sesión en nombre de la persona del mostrador.",
    },
    nl: {
      name: "Demo-slijpautomaat",
      description: "Een glazenslijpautomaat in de winkel die inlogt namens de persoon aan de balie.",
    },
    pl: {
      name: "Demonstracyjny automat szlifierski",
      description: "Automat do szlifowania soczewek w salonie, który loguje się w imieniu osoby przy ladzie.",
    },
  },
} satisfies Record<string, Partial<Record<Locale, ClientText>>>;

type DemoClientId = keyof typeof demoClientTexts;

/** A demo client's `client_name#<language>` and `description#<language>` entries, to spread into its metadata. */
export function translatedClientTexts(clientId: DemoClientId): Record<string, string> {
  return Object.fromEntries(
    Object.entries(demoClientTexts[clientId]).flatMap(([language, { name, description }]) => [
      [`client_name#${language}`, name],
      [`description#${language}`, description],
    ]),
  );
}
