/**
 * A scripted team for the conclusion groups: alice and bob reach 18 in
 * different words (`6 × 3 = 18`, `**$18.00**`), carol says 20; each votes for its own answer, so
 * the votes split 1–1–1 by answer and 2–1 by conclusion. alice (the 18 group's earliest answer)
 * presents, keeping 18.
 */

/** The question the team is asked (the script, not the question, decides the answers). */
export const CONCLUSION_QUESTION = "Pens cost $3 each. How much do six pens cost?";

/** team.yaml of the team. */
export const CONCLUSION_TEAM_YAML = `agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - answer: "Six pens at $3 each:\\n6 × 3 = 18"
        - vote: agent1
          reason: "Mine."
        - text: "Six pens cost $18.\\n\\nFinal answer: 18"
  - id: bob
    backend:
      type: scripted
      steps:
        - answer: "Each pen is three dollars, so six of them cost\\n**$18.00**"
        - vote: agent2
          reason: "Mine."
  - id: carol
    backend:
      type: scripted
      steps:
        - answer: "I count 20.\\nThe answer is 20."
        - vote: agent3
          reason: "Mine."
`;
