"use client";

import { useEffect, useRef, useState } from "react";
import { scalarConfiguration, withPastedToken } from "@/lib/pages/api-reference-configuration";

interface ScalarInstance {
  destroy(): void;
}

declare global {
  interface Window {
    Scalar?: { createApiReference(element: Element, configuration: object): ScalarInstance };
  }
}

/** Loads the renderer's script once per page, however often the reference mounts. */
function loadScript(src: string): Promise<void> {
  if (window.Scalar) return Promise.resolve();
  let script = document.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
  if (!script) {
    script = document.createElement("script");
    script.src = src;
    document.head.append(script);
  }
  const loading = script;
  return new Promise((resolve, reject) => {
    loading.addEventListener("load", () => resolve(), { once: true });
    loading.addEventListener("error", () => reject(new Error(`${src} did not load`)), { once: true });
  });
}

async function openApiDocument(url: string): Promise<object> {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/**
 * Scalar's reference of one OpenAPI document, mounted in the browser: the script and the document come from this
 * origin, and so do the requests it tries. Scalar owns the element it mounts on; React renders only beside it.
 */
export function ApiReference(props: {
  documentUrl: string;
  scriptUrl: string;
  locale: string;
  texts: Record<"loading" | "failed", string>;
}) {
  const { documentUrl, scriptUrl, locale, texts } = props;
  const mountPoint = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "shown" | "failed">("loading");
  useEffect(() => {
    let instance: ScalarInstance | undefined;
    let cancelled = false;
    Promise.all([openApiDocument(documentUrl), loadScript(scriptUrl)])
      .then(([document]) => {
        if (cancelled || !mountPoint.current || !window.Scalar) return;
        const content = withPastedToken(document, window.location.origin);
        instance = window.Scalar.createApiReference(mountPoint.current, scalarConfiguration(content, locale));
        setState("shown");
      })
      .catch(() => !cancelled && setState("failed"));
    return () => {
      cancelled = true;
      instance?.destroy();
    };
  }, [documentUrl, scriptUrl, locale]);
  return (
    <div>
      {state === "shown" ? null : (
        <p role={state === "failed" ? "alert" : "status"} className="text-slate-700">
          {texts[state]}
        </p>
      )}
      <div ref={mountPoint} />
    </div>
  );
}
