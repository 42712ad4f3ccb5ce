/**
 * The demo data set of (identity part): companies, users and clients with fixed secrets.
 * Loaded by lib/db/load-demo-data.ts when DEMO_DATA=1. Never use these secrets outside a demo.
 */
import { translatedClientTexts } from "@/prisma/demo-client-texts";

export interface DemoCompany {
  id: string;
  name: string;
  kind: "eye_care_professional" | "supplier" | "operator" | "software_vendor";
  /** ISO 3166-1 alpha-2 */
  country: string;
}

export interface DemoUser {
  email: string;
  password: string;
  givenName: string;
  familyName: string;
  companyId: string;
  role: "user" | "admin" | "developer";
}

export interface DemoClient {
  metadata: Record<string, unknown>;
  secret?: string;
}

export const demoCompanies: DemoCompany[] = [
  { id: "demo-company-optician", name: "Augenoptik Demo GmbH", kind: "eye_care_professional", country: "DE" },
  // No users: it is there for its request at Demo Lens (prisma/demo-catalogs.ts), for the supplier to decide on.
  { id: "demo-company-optician-sonne", name: "Optik Sonnenschein e.K.", kind: "eye_care_professional", country: "DE" },
  { id: "demo-company-lens", name: "Demo Lens AG", kind: "supplier", country: "DE" },
  { id: "demo-company-frames", name: "Frame Works GmbH", kind: "supplier", country: "DE" },
  { id: "demo-company-operator", name: "OptiGate Operations", kind: "operator", country: "DE" },
  { id: "demo-company-vendor", name: "Praxissoft Demo GmbH", kind: "software_vendor", country: "DE" },
  // No users: its people sign in at its own provider (npm run demo:idp) and are created then.
  { id: "demo-company-nord", name: "Optik Nord GmbH", kind: "eye_care_professional", country: "DE" },
];

/** Optik Nord's own sign-in: the local provider of `npm run demo:idp`, for every address in its domain. */
export const demoCompanySso = {
  companyId: "demo-company-nord",
  domain: "optik-nord.test",
  issuer: "http://localhost:3100",
  clientId: "optigate-demo",
  clientSecret: "demo-idp-secret",
};

export const demoUsers: DemoUser[] = [
  {
    email: "optician@demo.test",
    password: "Optician#2026",
    givenName: "Olivia",
    familyName: "Optik",
    companyId: "demo-company-optician",
    // The company's administrator: /portal/company shows her colleagues, among them the invitation below.
    role: "admin",
  },
  {
    email: "supplier@demo.test",
    password: "Supplier#2026",
    givenName: "Sam",
    familyName: "Linse",
    companyId: "demo-company-lens",
    role: "user",
  },
  {
    email: "frames@demo.test",
    password: "Frames#2026",
    givenName: "Finn",
    familyName: "Rahmen",
    companyId: "demo-company-frames",
    role: "user",
  },
  {
    email: "admin@demo.test",
    password: "Admin#2026",
    givenName: "Ada",
    familyName: "Admin",
    companyId: "demo-company-operator",
    role: "admin",
  },
  {
    email: "developer@demo.test",
    password: "Developer#2026",
    givenName: "Dev",
    familyName: "Entwickler",
    companyId: "demo-company-vendor",
    role: "developer",
  },
];

/** A colleague the optician invited who has not joined yet: the invitation's mail waits in the outbox. */
export const demoInvitation = {
  email: "colleague@demo.test",
  companyId: "demo-company-optician",
  role: "user",
  language: "de",
  invitedBy: "optician@demo.test",
} as const;

/**
 * The software vendor's application waiting for the operator's approval (registered as through the partner portal),
 * and the platform scope the operator allows the vendor.
 */
export function demoPartnerApplication(apiScopePrefix: string) {
  return {
    companyId: "demo-company-vendor",
    partnerScopes: [`${apiScopePrefix}.catalogs.read`],
    metadata: {
      client_id: "praxissoft-termine",
      client_name: "Praxissoft Appointments",
      "client_name#de": "Praxissoft Termine",
      description: "Appointment booking for opticians, with the supplier catalogs at hand.",
      "description#de": "Terminbuchung für Augenoptiker, mit den Lieferantenkatalogen zur Hand.",
      ...translatedClientTexts("praxissoft-termine"),
      redirect_uris: ["https://termine.praxissoft.example/callback"],
      post_logout_redirect_uris: ["https://termine.praxissoft.example/"],
      scope: `openid profile email ${apiScopePrefix}.catalogs.read`,
    },
  };
}

/** The public demo clients: two browser apps and a desktop app. */
function publicDemoClients(interactiveScopes: string): DemoClient[] {
  return [
    {
      metadata: {
        client_id: "demo-spa",
        client_name: "Demo single-page app",
        "client_name#de": "Demo-Single-Page-App",
        description: "A browser app that signs in with the authorization code flow and PKCE.",
        "description#de": "Eine Browser-App, die sich mit dem Autorisierungscode-Flow und PKCE anmeldet.",
        ...translatedClientTexts("demo-spa"),
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        redirect_uris: ["http://localhost:5173/callback"],
        post_logout_redirect_uris: ["http://localhost:5173/"],
        allowed_cors_origins: ["http://localhost:5173"],
        scope: interactiveScopes,
      },
    },
    {
      metadata: {
        client_id: "demo-implicit",
        client_name: "Demo legacy browser app",
        "client_name#de": "Demo-Browser-App (älteres Verfahren)",
        description: "A browser app that still uses the implicit flow.",
        "description#de": "Eine Browser-App, die noch den Implicit-Flow verwendet.",
        ...translatedClientTexts("demo-implicit"),
        token_endpoint_auth_method: "none",
        grant_types: ["implicit"],
        redirect_uris: ["http://localhost:5174/callback"],
        post_logout_redirect_uris: ["http://localhost:5174/"],
        allowed_cors_origins: ["http://localhost:5174"],
        scope: interactiveScopes,
      },
    },
    {
      metadata: {
        client_id: "demo-native",
        client_name: "Demo desktop app",
        "client_name#de": "Demo-Desktop-App",
        description: "A desktop app for opticians that stays connected to the platform.",
        "description#de": "Eine Desktop-App für Augenoptiker, die mit der Plattform verbunden bleibt.",
        ...translatedClientTexts("demo-native"),
        application_type: "native",
        redirect_uris: ["com.example.demo:/callback"],
        offline_access: true,
        scope: `${interactiveScopes} offline_access`,
      },
    },
  ];
}

/** The confidential demo clients: two server web apps and a backend service. */
function confidentialDemoClients(apiScopePrefix: string, interactiveScopes: string): DemoClient[] {
  return [
    {
      metadata: {
        client_id: "demo-web",
        client_name: "Demo web shop",
        "client_name#de": "Demo-Webshop",
        description: "A server web application of a lens supplier.",
        "description#de": "Eine Server-Webanwendung eines Glaslieferanten.",
        ...translatedClientTexts("demo-web"),
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: ["http://localhost:4000/callback"],
        post_logout_redirect_uris: ["http://localhost:4000/"],
        offline_access: true,
        scope: `${interactiveScopes} offline_access ${apiScopePrefix}.supplierreg.read ${apiScopePrefix}.supplierreg.readwrite`,
      },
      secret: "demo-web-secret",
    },
    {
      metadata: {
        client_id: "demo-authjs",
        client_name: "Demo partner portal",
        "client_name#de": "Demo-Partnerportal",
        description: "A software partner's portal that shows you the catalogs of your suppliers.",
        "description#de": "Das Portal eines Softwarepartners, das Ihnen die Kataloge Ihrer Lieferanten zeigt.",
        ...translatedClientTexts("demo-authjs"),
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: ["http://localhost:3001/api/auth/callback/optigate"],
        post_logout_redirect_uris: ["http://localhost:3001/"],
        offline_access: true,
        scope: `${interactiveScopes} offline_access`,
      },
      secret: "demo-authjs-secret",
    },
    {
      metadata: {
        client_id: "demo-backend",
        client_name: "Demo batch job",
        "client_name#de": "Demo-Batchjob",
        description: "A backend service that reads catalogs and manages supplier registrations.",
        "description#de": "Ein Backend-Dienst, der Kataloge liest und Lieferantenregistrierungen verwaltet.",
        ...translatedClientTexts("demo-backend"),
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: "client_secret_basic",
        scope: `${apiScopePrefix}.catalogs.read ${apiScopePrefix}.supplierreg.readwrite`,
      },
      secret: "demo-backend-secret",
    },
  ];
}

/** The device that signs in as the person at the counter (RFC 8628; CONTRACT §14, `npm run demo:device`). */
function deviceDemoClient(apiScopePrefix: string): DemoClient {
  return {
    metadata: {
      client_id: "demo-device",
      client_name: "Demo edger",
      "client_name#de": "Demo-Schleifautomat",
      description: "A lens edger in the shop that signs in as the person at the counter.",
      "description#de": "Ein Glasschleifautomat im Geschäft, der sich als die Person an der Theke anmeldet.",
      ...translatedClientTexts("demo-device"),
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
      token_endpoint_auth_method: "none",
      offline_access: true,
      scope: `openid profile offline_access ${apiScopePrefix}.catalogs.read`,
      // The demo script prints the ID token's claims: the person's name is in it.
      id_token_claims: true,
    },
  };
}

export function demoClients(apiScopePrefix: string): DemoClient[] {
  const interactiveScopes = `openid profile email ${apiScopePrefix}.catalogs.read`;
  return [
    ...publicDemoClients(interactiveScopes),
    deviceDemoClient(apiScopePrefix),
    ...confidentialDemoClients(apiScopePrefix, interactiveScopes),
  ];
}
