//! The two wire formats a model is asked in, over reqwest: OpenAI-compatible chat completions
//! (`POST {base_url}/chat/completions`: OpenAI, Ollama, llama.cpp, vLLM, OpenRouter) and the
//! Anthropic Messages API (`POST {base_url}/v1/messages`). One question, one short answer:
//! temperature 0 and a small `max_tokens`.

use std::fmt;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use super::prompt::Prompt;

/// The answer is one small JSON object with a one-sentence rationale.
pub const MAX_TOKENS: u32 = 256;
/// The Messages API version gatehouse speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// An answer body larger than this is not a one-word answer.
const MAX_BODY_BYTES: usize = 256 * 1024;

/// Which wire format a model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Provider {
    #[serde(rename = "openai")]
    OpenAi,
    #[serde(rename = "anthropic")]
    Anthropic,
}

impl Provider {
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::OpenAi => "https://api.openai.com/v1",
            Provider::Anthropic => "https://api.anthropic.com",
        }
    }

    /// A small, fast model: the question is easy and the human is waiting.
    pub fn default_model(self) -> &'static str {
        match self {
            Provider::OpenAi => "gpt-4.1-mini",
            Provider::Anthropic => "claude-haiku-4-5",
        }
    }

    pub fn default_key_env(self) -> &'static str {
        match self {
            Provider::OpenAi => "OPENAI_API_KEY",
            Provider::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An API key. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(pub String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(hidden)")
    }
}

/// Where and how to ask one model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub provider: Provider,
    /// Without a trailing slash.
    pub base_url: String,
    pub model: String,
    /// `None` for local servers that need no key.
    pub api_key: Option<ApiKey>,
}

/// Why a model gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("could not reach the model at {url}: {reason}")]
    Transport { url: String, reason: String },
    #[error("the model answered HTTP {status}: {message}")]
    Status { status: u16, message: String },
    #[error("the model's answer is not the {provider} JSON expected: {why}")]
    Malformed { provider: Provider, why: String },
    #[error("the model did not answer within {} ms (timeout_ms)", .0.as_millis())]
    Timeout(Duration),
}

impl Endpoint {
    pub fn url(&self) -> String {
        match self.provider {
            Provider::OpenAi => format!("{}/chat/completions", self.base_url),
            Provider::Anthropic => format!("{}/v1/messages", self.base_url),
        }
    }

    /// The JSON request body for `prompt`.
    pub fn request_body(&self, prompt: &Prompt) -> Value {
        match self.provider {
            Provider::OpenAi => json!({
                "model": self.model,
                "messages": [
                    {"role": "system", "content": prompt.system},
                    {"role": "user", "content": prompt.user},
                ],
                "max_tokens": MAX_TOKENS * prompt.answers.max(1) as u32,
                "temperature": 0,
                "stream": false,
            }),
            Provider::Anthropic => json!({
                "model": self.model,
                "system": prompt.system,
                "messages": [{"role": "user", "content": prompt.user}],
                "max_tokens": MAX_TOKENS * prompt.answers.max(1) as u32,
                "temperature": 0,
            }),
        }
    }

    /// The model's text from a successful response body. A response without text (a refusal,
    /// an empty message) is an empty answer, which the caller reads as unsure.
    pub fn answer_text(&self, body: &[u8]) -> Result<String, ProviderError> {
        let malformed = |why: String| ProviderError::Malformed {
            provider: self.provider,
            why,
        };
        let value: Value = serde_json::from_slice(body).map_err(|e| malformed(e.to_string()))?;
        match self.provider {
            Provider::OpenAi => {
                let message = value
                    .pointer("/choices/0/message")
                    .ok_or_else(|| malformed("it has no choices[0].message".into()))?;
                Ok(message
                    .get("content")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string())
            }
            Provider::Anthropic => {
                let content = value
                    .get("content")
                    .and_then(Value::as_array)
                    .ok_or_else(|| malformed("it has no content array".into()))?;
                Ok(content
                    .iter()
                    .find(|block| block.get("type").and_then(Value::as_str) == Some("text"))
                    .and_then(|block| block.get("text").and_then(Value::as_str))
                    .unwrap_or("")
                    .to_string())
            }
        }
    }

    /// Asks the model once and returns its raw text. Dropping the future cancels the request.
    pub async fn ask(
        &self,
        http: &reqwest::Client,
        prompt: &Prompt,
        timeout: Duration,
    ) -> Result<String, ProviderError> {
        match tokio::time::timeout(timeout, self.exchange(http, prompt)).await {
            Ok(result) => result,
            Err(_) => Err(ProviderError::Timeout(timeout)),
        }
    }

    async fn exchange(
        &self,
        http: &reqwest::Client,
        prompt: &Prompt,
    ) -> Result<String, ProviderError> {
        let url = self.url();
        let transport = |err: reqwest::Error| ProviderError::Transport {
            url: url.clone(),
            reason: error_chain(&err),
        };
        let mut request = http.post(&url).json(&self.request_body(prompt));
        request = match (self.provider, &self.api_key) {
            (Provider::OpenAi, Some(key)) => request.bearer_auth(&key.0),
            (Provider::OpenAi, None) => request,
            (Provider::Anthropic, key) => {
                let request = request.header("anthropic-version", ANTHROPIC_VERSION);
                match key {
                    Some(key) => request.header("x-api-key", &key.0),
                    None => request,
                }
            }
        };
        let mut response = request.send().await.map_err(transport)?;
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(transport)? {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_BODY_BYTES {
                return Err(ProviderError::Malformed {
                    provider: self.provider,
                    why: format!("the body is over {MAX_BODY_BYTES} bytes"),
                });
            }
        }
        if !status.is_success() {
            return Err(ProviderError::Status {
                status: status.as_u16(),
                message: error_message(&body),
            });
        }
        self.answer_text(&body)
    }
}

/// The `error.message` both APIs put in an error body, or the start of the body itself.
fn error_message(body: &[u8]) -> String {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/message"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    let message = message.trim();
    match message.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &message[..at]),
        None if message.is_empty() => "(empty body)".into(),
        None => message.to_string(),
    }
}

/// An error and its causes, `: `-joined: reqwest's own message alone rarely says why.
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(provider: Provider) -> Endpoint {
        Endpoint {
            provider,
            base_url: "http://127.0.0.1:1".into(),
            model: "m".into(),
            api_key: Some(ApiKey("sk-secret".into())),
        }
    }

    #[test]
    fn each_provider_reads_its_own_answer_shape() {
        let openai = endpoint(Provider::OpenAi);
        let body =
            br#"{"choices":[{"index":0,"message":{"role":"assistant","content":"writes"}}]}"#;
        assert_eq!(openai.answer_text(body).unwrap(), "writes");
        let refusal = br#"{"choices":[{"message":{"role":"assistant","content":null}}]}"#;
        assert_eq!(openai.answer_text(refusal).unwrap(), "");
        assert!(openai.answer_text(br#"{"content":[]}"#).is_err());

        let anthropic = endpoint(Provider::Anthropic);
        let body = br#"{"type":"message","content":[{"type":"text","text":"read-only"}]}"#;
        assert_eq!(anthropic.answer_text(body).unwrap(), "read-only");
        assert!(anthropic.answer_text(b"not json").is_err());
    }

    #[test]
    fn error_bodies_give_their_message_cut_short() {
        assert_eq!(
            error_message(br#"{"error":{"message":"bad key"}}"#),
            "bad key"
        );
        assert_eq!(error_message(b""), "(empty body)");
        assert_eq!(error_message(&[b'x'; 500]).chars().count(), 201);
    }

    #[test]
    fn a_key_never_shows_in_debug_output() {
        let text = format!("{:?}", endpoint(Provider::OpenAi));
        assert!(!text.contains("sk-secret"), "{text}");
    }
}
