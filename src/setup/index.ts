/**
 * The setup layer's public API: the first-time setup wizard (spec section 1), the `--select`
 * picker (spec section 2), and the prompter they ask through (clack in a terminal, scripted in
 * tests).
 */
export { type ConfigChoice } from "./config-step.js";
export { checkProviderKey, type KeyCheckResult } from "./key-check.js";
export { pickConfig } from "./pick-config.js";
export {
  BACK,
  type Back,
  type Choice,
  createClackPrompter,
  type Prompter,
  type PromptStreams,
  SetupCancelled,
} from "./prompter.js";
export {
  createScriptedPrompter,
  CTRL_C,
  type ScriptedAnswer,
  type ScriptedPrompter,
} from "./scripted-prompter.js";
export { TEMPLATES, type TemplateId } from "./templates.js";
export { runSetupWizard, type WizardOptions } from "./wizard.js";
