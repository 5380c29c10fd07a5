/** The environment of a REPL under test: a private home, the test API key, the fake model API. */
import type { FakeModelApi } from "./fake_model_api.ts";

export const KEY = "sk-ant-test-key";

export function replEnv(home: string, fake: FakeModelApi, extra: Record<string, string> = {}) {
  return {
    HOME: home,
    ASSIST_HOME: `${home}/.assist`,
    ASSIST_API_KEY: KEY,
    ASSIST_MODEL_API_URL: fake.url,
    ...extra,
  };
}
