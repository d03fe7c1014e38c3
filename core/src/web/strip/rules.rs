//! The markers, as rules over the normalized view.
//!
//! Rules are written against the view, not the page: lowercase, one space
//! or `\n` between words, `-` and `_` already spaces. In a pattern `~` is
//! the gap between two words (a space, a line break, or nothing, since
//! letter spacing collapses words together) and `\b` an ASCII word
//! boundary; non-ASCII letters are folded like the page's before
//! compiling, so a rule is written in its own script.
//!
//! The first 16 rules are upstream agentsec-core's markers, labelled with
//! the marker as it wrote it; where one of them and a family rule match the
//! same text, the marker's label wins. Unlike upstream, a marker is only
//! matched as whole words (`you are nowhere` and `[inst]allation` are
//! prose), and the two markers that ordinary prose uses in other senses
//! take the words that make them an attack: `you are now` a persona (`you
//! are now DAN`, not `you are now logged in`) and `<!-- system` a
//! directive comment (not `<!-- System requirements -->`; see
//! `carriers`).

use regex::Regex;

use super::normalize::fold_literal;

/// What a rule's match is reported as.
pub type Label = &'static str;

pub const INSTRUCTION_OVERRIDE: Label = "instruction_override";
pub const NEW_INSTRUCTIONS: Label = "new_instructions";
pub const ROLE_REASSIGNMENT: Label = "role_reassignment";
pub const FAKE_HEADER: Label = "fake_header";
pub const CHAT_TEMPLATE_TOKEN: Label = "chat_template_token";
pub const AI_ADDRESS: Label = "ai_address";
pub const HIDDEN_COMMENT: Label = "hidden_comment";
pub const HIDDEN_ELEMENT: Label = "hidden_element";
/// A `[STRIPPED]` the page wrote itself: reported as its own removal, so
/// that every `[STRIPPED]` in the output has a label and none fakes one.
pub const PLANTED_MARKER: Label = "planted [STRIPPED]";
/// upstream's `<!-- system`, matched on comments by `carriers`.
pub const SEED_COMMENT_SYSTEM: Label = "<!-- system";

/// Every label a strip can report: the 16 markers, then the families.
pub const LABELS: &[Label] = &[
    "ignore all previous instructions",
    "ignore previous instructions",
    "ignore the above",
    "disregard prior instructions",
    "you are now",
    "act as if you are",
    "system prompt:",
    "developer message:",
    "BEGIN SYSTEM PROMPT",
    "###system",
    "[INST]",
    "[/INST]",
    "<|system|>",
    "<|assistant|>",
    "<|user|>",
    SEED_COMMENT_SYSTEM,
    INSTRUCTION_OVERRIDE,
    NEW_INSTRUCTIONS,
    ROLE_REASSIGNMENT,
    FAKE_HEADER,
    CHAT_TEMPLATE_TOKEN,
    AI_ADDRESS,
    HIDDEN_COMMENT,
    HIDDEN_ELEMENT,
    PLANTED_MARKER,
];

/// A check on the view after a match: the match stands only if it holds.
pub type Follow = fn(&str) -> bool;

pub struct Rule {
    pub label: Label,
    pub regex: Regex,
    pub follow: Option<Follow>,
}

/// Who a persona reassignment makes the reader: what must follow `you are
/// now` (and its paraphrases) for it to be one.
const PERSONA: &str = r"(?:(?:(?:an?|the|my|your)~)?(?:(?:new|different|unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|unbound|liberated|limitless|amoral|unethical|malicious|obedient|compliant|helpful|unlimited|unconstrained|unchained|unshackled|free|fully)~){0,3}(?:dan|stan|dude|aim|ai|assistant|chatbot|chat~bot|language~model|llm|gpt|chatgpt|claude|gemini|persona|character|hacker|jailbreak|entity|personality|version~of~yourself)\b|in~(?:developer|dev|god|debug|jailbreak|jailbroken|dan|admin|sudo|root|maintenance|unrestricted|unfiltered|evil|chaos|opposite|unlocked)~mode\b|(?:unrestricted|unfiltered|uncensored|jailbroken|unbound|liberated|unshackled|unchained|unleashed|unlocked)\b|free~(?:from|of)~(?:all~|any~|your~)?(?:rules|restrictions|limitations|constraints|guidelines|filters|policies|censorship|programming)\b|(?:going~to~|gonna~|about~to~|to~)?(?:act|acting|pretend|pretending|roleplay|roleplaying|role~play|role~playing|simulate|simulating|behave|behaving|impersonate|impersonating)\b|no~longer~(?:bound|restricted|limited|an~ai|a~language~model|an~assistant|chatgpt|claude|required~to|subject~to|governed|constrained|obligated)\b)";

/// Verbs that tell a reader to drop what it was told.
const OVERRIDE_VERB: &str = r"(?:ignore|ignoring|disregard|disregarding|forget|forgetting|override|overriding|overwrite|bypass|skip|neglect|abandon|discard|dismiss|drop|erase|delete|clear|reset|cancel|nullify|void|revoke|set~aside|throw~out|scrap|ditch|omit|stop~following|do~not~follow|don't~follow|dont~follow|never~mind|nevermind|pay~no~attention~to|pay~no~heed~to|do~not~obey|don't~obey)";
/// Determiners between the verb and what it drops; third-person ones
/// (`its`, `their`) are left out on purpose: a page that says the model
/// should "disregard its earlier guidance" describes an attack.
const OVERRIDE_DETERMINERS: &str = r"(?:(?:all|any|each|every|of|the|your|my|these|those|this|that|our|such|both|other|entire|whole|full|complete)~){0,4}";
const OVERRIDE_WHEN: &str = r"(?:previous|previously~given|prior|above|earlier|preceding|foregoing|former|past|old|older|original|initial|existing|current|given|aforementioned|last|system|developer|default|safety|built~in|hidden|preset|pre~set|programmed|standing)";
const OVERRIDE_WHAT: &str = r"(?:instructions?|rules?|directions?|directives?|guidelines?|guidance|prompts?|commands?|orders?|constraints?|restrictions?|limitations?|policies|policy|programming|training|context|messages?|conversation|settings|safeguards?|guardrails?|filters?|protocols?|requirements?|configuration|system~prompt|tasks?|text|content|input)";

/// Words that start a directive after a fake `system:` line head.
const DIRECTIVE: &str = r"(?:you|your|ignore|disregard|forget|override|do~not|don't|dont|never|always|stop|from~now~on|new~instructions|important|attention|urgent|reveal|print|output|respond|reply|answer~only|say|tell|send|execute|run|delete|transfer|switch|enter|enable|activate|the~user|the~assistant|the~ai|the~model|assistant|ai|model)\b";

/// Words after `ignore the above` that make it an ordinary remark about a
/// page (`ignore the above warning if you use v2`).
fn not_about_page_parts(after: &str) -> bool {
    const PARTS: &[&str] = &[
        "step",
        "steps",
        "warning",
        "warnings",
        "error",
        "errors",
        "section",
        "paragraph",
        "example",
        "examples",
        "code",
        "link",
        "links",
        "typo",
        "typos",
        "image",
        "screenshot",
        "table",
        "figure",
        "output",
        "log",
        "logs",
        "list",
        "diagram",
        "snippet",
        "commit",
        "email",
        "post",
        "comment",
        "question",
        "answer",
    ];
    let word: String = after
        .trim_start_matches([' ', '\n'])
        .chars()
        .take_while(char::is_ascii_lowercase)
        .collect();
    !PARTS.contains(&word.as_str())
}

/// `[INST]` is a token only when no letter or digit runs on after it.
fn not_followed_by_word(after: &str) -> bool {
    !after.starts_with(|c: char| c.is_alphanumeric())
}

/// Compiles a rule's pattern: `~` becomes the word gap, `\b` the ASCII
/// boundary, non-ASCII letters are folded like the page.
fn compile(pattern: &str) -> Regex {
    let mut source = String::with_capacity(pattern.len() * 2);
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '~' => source.push_str(r"[ \n]?"),
            '\\' if chars.peek() == Some(&'b') => {
                chars.next();
                source.push_str(r"(?-u:\b)");
            }
            '\\' => {
                source.push('\\');
                if let Some(next) = chars.next() {
                    source.push(next);
                }
            }
            c if c.is_ascii() => source.push(c),
            c => source.push_str(&regex::escape(&fold_literal(&c.to_string()))),
        }
    }
    Regex::new(&source).unwrap_or_else(|error| {
        panic!("rule pattern {pattern:?} must compile (a bug in the rule table): {error}")
    })
}

/// Every rule, in priority order: upstream's markers first.
pub fn rules() -> Vec<Rule> {
    let table: Vec<(Label, String, Option<Follow>)> = vec![
        // --- upstream agentsec-core's 16 markers (15 here; `<!-- system` is a carrier) ---
        (
            "ignore all previous instructions",
            r"\bignore~all~previous~instructions\b".into(),
            None,
        ),
        (
            "ignore previous instructions",
            r"\bignore~previous~instructions\b".into(),
            None,
        ),
        (
            "ignore the above",
            r"\bignore~the~above\b".into(),
            Some(not_about_page_parts),
        ),
        (
            "disregard prior instructions",
            r"\bdisregard~prior~instructions\b".into(),
            None,
        ),
        ("you are now", format!(r"\byou~are~now[ \n]{PERSONA}"), None),
        ("act as if you are", r"\bact~as~if~you~are\b".into(), None),
        ("system prompt:", r"\bsystem~prompt[ \n]?:".into(), None),
        ("developer message:", r"\bdeveloper~message[ \n]?:".into(), None),
        (
            "BEGIN SYSTEM PROMPT",
            r"\bbegin~system~prompt\b".into(),
            None,
        ),
        ("###system", r"###system\b".into(), None),
        (
            "###system",
            r"(?m:^)[ ]?#{2,6}[ ]?system(?:[ ]?(?:prompt|message|instructions?|override|directive))?[ ]?(?::|$)".into(),
            None,
        ),
        ("[INST]", r"\[[ ]?inst[ ]?\]".into(), Some(not_followed_by_word)),
        ("[/INST]", r"\[[ ]?/[ ]?inst[ ]?\]".into(), Some(not_followed_by_word)),
        ("<|system|>", r"<[ ]?\|[ ]?system[ ]?\|[ ]?>".into(), None),
        ("<|assistant|>", r"<[ ]?\|[ ]?assistant[ ]?\|[ ]?>".into(), None),
        ("<|user|>", r"<[ ]?\|[ ]?user[ ]?\|[ ]?>".into(), None),
        // --- a `[STRIPPED]` the page planted ---
        (PLANTED_MARKER, r"\[[ ]?stripped[ ]?\]".into(), None),
        // --- instruction override ---
        (
            INSTRUCTION_OVERRIDE,
            format!(
                r"\b{OVERRIDE_VERB}~{OVERRIDE_DETERMINERS}(?:{OVERRIDE_WHEN}~){{1,2}}{OVERRIDE_WHAT}\b"
            ),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            format!(
                r"\b{OVERRIDE_VERB}~{OVERRIDE_DETERMINERS}{OVERRIDE_WHAT}~(?:above|before|so~far|until~now|up~to~now|you~(?:were|have~been|got|received)~(?:given|told|taught)|given~(?:to~you|before|above|earlier|previously)|from~(?:before|above|earlier|the~system|your~(?:developers?|creators?|operators?))|you~(?:were|have~been)~(?:trained~on|programmed~with))\b"
            ),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            format!(
                r"\b{OVERRIDE_VERB}~(?:everything|anything|all|whatever)~(?:(?:that|which)~)?(?:above|before|prior|previously|so~far|you~(?:were|have~been|'ve~been)~(?:told|given|instructed|taught)|(?:i|we)~(?:said|told~you)|(?:came|comes|was~(?:written|said))~(?:before|above|earlier))\b"
            ),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            format!(
                r"\b(?:do~not|don't|dont|never|stop|no~longer)~(?:follow|obey|listen~to|adhere~to|comply~with|follow~ing)~(?:the~|your~|any~|those~|these~|all~)?(?:(?:{OVERRIDE_WHEN})~)+{OVERRIDE_WHAT}\b"
            ),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            format!(
                r"\b(?:the~|these~|those~|all~|your~)?(?:above|previous|prior|preceding|earlier|original|system|initial)~{OVERRIDE_WHAT}~(?:was|were|are|is|have~been|has~been)~(?:fake|false|wrong|outdated|a~test|void|cancell?ed|revoked|obsolete|invalid|no~longer~valid|deprecated|superseded|overridden|replaced|null)\b"
            ),
            None,
        ),
        // Other languages, as their speakers phrase the override.
        (
            INSTRUCTION_OVERRIDE,
            r"\b(?:ignoriere|ignorieren~sie|ignorier|vergiss|vergessen~sie|missachte|missachten~sie)~(?:(?:alle|die|deine|ihre|jegliche|s[aä]mtliche|bisherigen|vorherigen|vorangegangenen|obigen|fr[uü]heren|vorigen|bisher|gegebenen)~){1,3}(?:anweisungen|instruktionen|regeln|befehle|vorgaben|richtlinien|anordnungen)\b".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"\b(?:ignore[zr]?|oublie[zr]?|ne~tiens~pas~compte~des|ne~tenez~pas~compte~des|fais~abstraction~des)~(?:(?:toutes|tous|les|tes|vos|des|ces)~){0,3}(?:instructions|consignes|r[eè]gles|directives|ordres)~(?:pr[eé]c[eé]dentes|ant[eé]rieures|ci~dessus|donn[eé]es|initiales|d'avant)\b".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"\b(?:ignora|ignore|ignorar|ignoren|olvida|olvide|olviden|olvidar|descarta|esquece|esque[cç]a|desconsidere|desconsidera|dimentica|dimenticare|trascura)~(?:(?:todas|todos|tutte|tutti|las|los|as|os|le|gli|tus|tuas|suas|sus|le~tue)~){0,3}(?:instrucciones|instru[cç][oõ]es|istruzioni|reglas|regras|regole|indicaciones|indica[cç][oõ]es|indicazioni|[oó]rdenes|ordens)~(?:anteriores|previas|pr[eé]vias|precedentes|precedenti|de~antes|dadas|originales|originais|iniciales|iniciais)\b".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"\b(?:negeer|vergeet)~(?:(?:alle|de|je|jouw|uw)~){0,3}(?:vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke)~(?:instructies|regels|opdrachten|aanwijzingen)\b".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"(?:игнорируй|игнорируйте|забудь|забудьте|проигнорируй|не~обращай~внимания~на)~(?:(?:все|всё|свои|твои|ваши)~){0,2}(?:предыдущие|прежние|прошлые|вышеуказанные|изначальные|данные~ранее|системные)~(?:инструкции|указания|правила|команды|установки)".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"(?:忽略|无视|忽视|不要理会|忘记|忘掉|無視)~(?:你~)?(?:之前|以前|先前|上面|上述|前面|此前|以上)?~(?:的)?~(?:所有|全部|一切)?~(?:的)?~(?:指令|指示|说明|規則|规则|提示|命令|設定|设定)".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"(?:以前|これまで|前|上記|先ほど|今まで)の~(?:すべての|全ての)?~(?:指示|命令|ルール|指令|プロンプト)~(?:を|は)~(?:すべて|全て)?~(?:無視|忘れ)".into(),
            None,
        ),
        (
            INSTRUCTION_OVERRIDE,
            r"(?:이전|앞의|위의|기존)~(?:의~)?(?:모든~)?(?:지시|명령|지침|규칙|프롬프트)(?:사항)?(?:을|를|은|는)?~(?:모두~)?(?:무시|잊어)".into(),
            None,
        ),
        // --- new instructions ---
        (
            NEW_INSTRUCTIONS,
            r"\b(?:new|updated|revised|real|actual|true|secret|hidden|overriding|priority)~(?:system~)?(?:instructions?|directives?|orders|commands|rules|task|prompt|guidelines)[ \n]?:".into(),
            None,
        ),
        (
            NEW_INSTRUCTIONS,
            r"\byour~(?:new|real|actual|true|updated)~(?:task|goal|objective|instructions?|mission|purpose|directive|orders|job)~(?:is|are|will~be|now)\b".into(),
            None,
        ),
        (
            NEW_INSTRUCTIONS,
            r"\bfrom~now~on[ ,\n]{0,2}you~(?:will|must|shall|should|are~to|have~to|may~only|can~only)~(?:only~|always~|never~|not~)?(?:respond|reply|answer|act|behave|pretend|roleplay|ignore|obey|follow|output|say|speak|talk|refuse|comply)\b".into(),
            None,
        ),
        // --- role reassignment ---
        (
            ROLE_REASSIGNMENT,
            format!(
                r"\b(?:you're|youre|you~will~now~be|you'll~now~be|you~will~be|from~now~on[ ,\n]{{0,2}}you~are|from~now~on[ ,\n]{{0,2}}you're|henceforth[ ,\n]{{0,2}}you~are|you~are~henceforth)~(?:now~)?{PERSONA}"
            ),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            format!(
                r"\bpretend~(?:to~be|that~you~are|that~you're|you~are|you're)~(?:{PERSONA}|not~an?~(?:ai|assistant|language~model)\b|a~human\b|human\b)"
            ),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            r"\b(?:act|acting|behave|respond|answer|reply|roleplay|role~play|pose|masquerade)~(?:as|like)~(?:(?:an?|the|my)~)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|unethical|malicious|dan|stan|dude|an~ai~without|an~ai~with~no|ai~without|ai~with~no|chatgpt~with|assistant~without|model~without|different~ai|new~ai|(?:deceased|late|dead)~(?:grandma|grandmother|grandpa|grandfather))\b".into(),
            None,
        ),
        (ROLE_REASSIGNMENT, r"\bdo~anything~now\b".into(), None),
        (
            ROLE_REASSIGNMENT,
            r"\b(?:(?:enable|activate|enter|switch~to|turn~on|engage)~)?(?:dan|jailbreak|god|evil|unrestricted|unfiltered|uncensored|chaos)~mode\b".into(),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            r"\b(?:chatgpt|assistant|ai|you|model)~(?:with|in)~developer~mode\b".into(),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            r"\byou~(?:are~no~longer|are~not|aren't)~(?:bound|restricted|limited|constrained|governed|required~to~follow|subject~to)~(?:by~)?(?:(?:any|your|the|openai's|openai|anthropic's|anthropic|its|their)~)?(?:rules|restrictions|guidelines|policies|limitations|content~polic(?:y|ies)|filters|ethics|programming)\b".into(),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            r"\byou~(?:have~no|don't~have~any|do~not~have~any|no~longer~have~any)~(?:ethical~|moral~|safety~|content~)?(?:restrictions|rules|limitations|filters|guidelines|boundaries)\b".into(),
            None,
        ),
        (ROLE_REASSIGNMENT, r"\bstay~in~character\b".into(), None),
        (
            ROLE_REASSIGNMENT,
            r"\b(?:du~bist~(?:jetzt|nun|ab~sofort)|ab~(?:jetzt|sofort)~bist~du|tu~es~(?:maintenant|d[eé]sormais)|vous~[eê]tes~(?:maintenant|d[eé]sormais)|ahora~eres|ahora~(?:usted~)?es|a~partir~de~ahora~eres|ora~sei|da~ora~sei|agora~voc[eê]~[eé]|agora~[eé]s|je~bent~nu|vanaf~nu~ben~je)~(?:(?:ein|eine|un|une|una|uno|um|uma|een)~)?(?:dan|ki|ia|ai|assistent|assistant|asistente|assistente|chatbot|modell?|mod[eè]le|modelo|personaggio|personnage|personaje|personagem|hacker|uneingeschr[aä]nkt|sans~restrictions|sin~restricciones|senza~restrizioni|sem~restri[cç][oõ]es)\b".into(),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            r"(?:ты~теперь|теперь~ты|отныне~ты|вы~теперь|теперь~вы)~(?:—~)?(?:dan|ии|ai|ассистент|помощник|бот|модель|персонаж|хакер|без~ограничений|свободн)".into(),
            None,
        ),
        (
            ROLE_REASSIGNMENT,
            r"(?:你现在是|從現在開始你是|从现在开始你是|你現在是|从现在起你是|あなたは今から|今からあなたは|これからあなたは|지금부터~너는|지금부터~당신은|이제~너는|이제부터~너는)".into(),
            None,
        ),
        // --- fake headers ---
        (
            FAKE_HEADER,
            r"(?m:^)[ ]?(?:[#>\[(<{|=]{1,6}[ ]?)?(?:system|developer|dev|admin|administrator|operator|root|sysadmin)[ ]?(?:message|prompt|instructions?|override|directive|command)[ ]?[\])>}|=#]{0,6}[ ]?:".into(),
            None,
        ),
        (
            FAKE_HEADER,
            format!(
                r"(?m:^)[ ]?(?:[#>\[(<{{|=]{{1,6}}[ ]?)?(?:system|developer|admin|administrator|operator|root)(?:[ ]?(?:note|notice|update|alert|policy|mode))?[ ]?[\])>}}|=#]{{0,6}}[ ]?:?[ \n]?{DIRECTIVE}"
            ),
            None,
        ),
        (
            FAKE_HEADER,
            r"\b(?:begin|end|start)~(?:of~)?(?:the~)?(?:system|developer|admin|hidden|secret|new|real)~(?:prompt|message|instructions)\b".into(),
            None,
        ),
        (
            FAKE_HEADER,
            r"\b(?:system|admin|administrator|security|priority|emergency|developer|root)~override\b".into(),
            None,
        ),
        (
            FAKE_HEADER,
            r"###(?:user|assistant|human|instruction|response)\b|(?m:^)[ ]?#{2,6}[ ]?(?:user|assistant|human)[ ]?(?::|$)".into(),
            None,
        ),
        // --- chat template tokens ---
        (
            CHAT_TEMPLATE_TOKEN,
            r"<[ ]?\|[ ]?[a-z][a-z0-9 ]{0,30}[ ]?\|[ ]?>".into(),
            None,
        ),
        (CHAT_TEMPLATE_TOKEN, r"<<[ ]?/?[ ]?sys[ ]?>>".into(), None),
        (
            CHAT_TEMPLATE_TOKEN,
            r"<[ ]?(?:start|end)[ ]?of[ ]?turn[ ]?>".into(),
            None,
        ),
        // --- addressing the model that reads the page ---
        (
            AI_ADDRESS,
            r"\b(?:note|message|instructions?|attention|notice|reminder|directive|memo|important|hidden~instructions?)~(?:to|for)~(?:the~|any~|all~)?(?:ai|a\.i\.|llms?|language~models?|large~language~models?|ai~(?:assistants?|agents?|models?|systems?|tools?)|assistants?|chatbots?|gpt|chatgpt|claude|gemini|copilot)\b".into(),
            None,
        ),
        (
            AI_ADDRESS,
            r"\bif~you~are~an?~(?:ai|llm|language~model|large~language~model|ai~assistant|ai~agent|ai~model|chatbot|automated~(?:agent|system|assistant))\b".into(),
            None,
        ),
        (
            AI_ADDRESS,
            r"\b(?:ai|llm|chatbot|language~model|ai~(?:assistant|agent|model))s?~(?:that~(?:is|are)~)?(?:reading|processing|parsing|summari[sz]ing|analy[sz]ing|browsing|crawling|scraping|viewing|visiting|indexing)~this\b".into(),
            None,
        ),
        (
            AI_ADDRESS,
            r"\b(?:attention|hey|hello|hi)[ ,\n]{0,2}(?:ai|llm|chatgpt|claude|gemini|copilot|language~model|ai~assistant|ai~agent)\b".into(),
            None,
        ),
        (
            AI_ADDRESS,
            r"\bas~an?~(?:ai|llm|language~model|ai~assistant)[ ,\n]{0,2}you~(?:must|should|will|are~(?:required|instructed|obligated))\b".into(),
            None,
        ),
    ];
    table
        .into_iter()
        .map(|(label, pattern, follow)| Rule {
            label,
            regex: compile(&pattern),
            follow,
        })
        .collect()
}

/// Whether `view` opens with a word that starts a directive.
pub fn starts_with_directive(view: &str) -> bool {
    static OPENS: std::sync::LazyLock<Regex> =
        std::sync::LazyLock::new(|| compile(&format!("^{DIRECTIVE}")));
    OPENS.is_match(view)
}
