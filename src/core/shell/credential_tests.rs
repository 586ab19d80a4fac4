//! Which lines may print a secret, and which stay as they were.

use crate::core::shell::{Obstacle, Risk, Safety, analyse};

fn credential(line: &str) -> bool {
    analyse(line).obstacle() == Some(Obstacle::Known(Risk::Credential))
}

#[test]
fn reading_a_credential_file_or_store_is_a_credential_risk() {
    for line in [
        "cat ~/.ssh/id_rsa",
        "cat $HOME/.ssh/id_ed25519",
        "head -c 100 \"${HOME}/.ssh/id_ecdsa\"",
        "cat /home/bob/.ssh/id_rsa",
        "cat ~bob/.ssh/id_rsa",
        "cat /root/.ssh/id_rsa",
        "cat ../../.ssh/id_rsa",
        "cat ~/.ssh/*",
        "cat ~/.{ssh,aws}/config",
        "cat ~/.aws/credentials",
        "less ~/.aws/credentials",
        "cat ~/.config/gcloud/application_default_credentials.json",
        "cat ~/.azure/accessTokens.json",
        "cat ~/.docker/config.json",
        "cat ~/.kube/config",
        "cat ~/.netrc",
        "cat ~/.pgpass",
        "cat ~/.npmrc",
        "cat ~/.pypirc",
        "cat ~/.cargo/credentials.toml",
        "cat ~/.config/gh/hosts.yml",
        "cat ~/.git-credentials",
        "cat .env",
        "cat .env.production",
        "grep -i key config/.env",
        "cat server.key",
        "openssl x509 -in cert.pem -noout",
        "cat /etc/shadow",
        "cat ~/.bash_history",
        "tail -n 50 ~/.zsh_history",
        "ls ~/.mozilla && cat ~/.mozilla/firefox/x/logins.json",
        "cat /proc/self/environ",
        "cat /proc/1/environ",
        "cat < ~/.ssh/id_rsa",
        "grep -r password ~",
        "grep -r token /home",
        "rg secret ~/.config",
        "git show HEAD:.env",
        "base64 ~/.ssh/id_rsa | head",
        "mytool --key-file=~/.ssh/id_rsa",
        "find ~/.ssh -type f -exec cat {} +",
        "find ~/.aws -name credentials -execdir head {} \\;",
        "fd . ~/.ssh -x cat",
    ] {
        assert!(credential(line), "{line}: {}", analyse(line).explanation());
    }
}

#[test]
fn printing_the_environment_or_a_secret_variable_is_a_credential_risk() {
    for line in [
        "env",
        "env -0",
        "printenv",
        "printenv GITHUB_TOKEN",
        "set",
        "export",
        "export -p",
        "declare -x",
        "declare -p",
        "typeset -p",
        "awk 'BEGIN { for (k in ENVIRON) print k, ENVIRON[k] }'",
        "ps auxe",
        "echo $GITHUB_TOKEN",
        "echo \"${AWS_SECRET_ACCESS_KEY}\"",
        "printf '%s' \"$OPENAI_API_KEY\"",
        "echo $DB_PASSWORD | base64",
        "echo ${NPM_TOKEN:-none}",
        "echo $SSH_AUTH_SOCK",
    ] {
        assert!(credential(line), "{line}: {}", analyse(line).explanation());
    }
}

#[test]
fn a_program_printing_its_own_token_is_a_credential_risk() {
    for line in [
        "gh auth token",
        "gh auth status --show-token",
        "aws configure get aws_secret_access_key",
        "gcloud auth print-access-token",
        "gcloud auth application-default print-access-token",
        "az account get-access-token",
        "kubectl config view --raw",
        "docker-credential-desktop get",
        "security find-generic-password -w -s x",
    ] {
        assert!(credential(line), "{line}: {}", analyse(line).explanation());
    }
}

#[test]
fn listing_names_and_everyday_reads_are_unchanged() {
    for line in [
        "cat README.md",
        "ls",
        "ls ~/.ssh",
        "ls -la ~/.aws",
        "ls -R ~",
        "find ~ -name id_rsa",
        "stat ~/.ssh/id_rsa",
        "wc -c ~/.ssh/id_rsa",
        "test -f ~/.aws/credentials && echo yes",
        "cat ~/.ssh/id_rsa.pub",
        "cat ~/.ssh/known_hosts",
        "env FOO=1 ls",
        "env -i ls",
        "printenv HOME",
        "echo $HOME",
        "echo ${#GITHUB_TOKEN}",
        "[ -n \"$GITHUB_TOKEN\" ]",
        "set -e",
        "set -euo pipefail",
        "declare -f",
        "grep -r TODO .",
        "grep -r TODO src",
        "cat .env.example",
        "cat src/keys.rs",
        "cat ~/notes.txt",
        "ps aux",
        "gh pr list",
        "git log --oneline",
        "awk '{print $1}' f",
        "export PATH=/tmp/x:$PATH; ls /tmp",
        "sort -T /tmp file.txt",
        "grep -r x /tmp",
    ] {
        let analysis = analyse(line);
        assert_ne!(
            analysis.obstacle(),
            Some(Obstacle::Known(Risk::Credential)),
            "{line}: {}",
            analysis.explanation()
        );
    }
}

#[test]
fn the_explanation_says_what_secret_is_read() {
    let analysis = analyse("cat ~/.aws/credentials");
    assert_eq!(analysis.safety, Safety::Unverified);
    let why = analysis.explanation();
    assert!(why.contains("AWS credentials"), "{why}");
    assert!(why.contains("~/.aws/credentials"), "{why}");
}

#[test]
fn a_secret_reached_through_a_variable_or_the_names_xargs_is_given_is_a_credential_risk() {
    for line in [
        "f=~/.ssh/id_rsa; cat \"$f\"",
        "for f in ~/.ssh/*; do cat \"$f\"; done",
        "k=$HOME/.aws/credentials && head -3 ${k}",
        "bash -c 'f=~/.netrc; cat $f'",
        "echo ~/.ssh/id_rsa | xargs cat",
        "ls ~/.ssh | xargs -n1 cat",
        "find ~/.aws -type f | xargs grep key",
        "printf '%s\\n' ~/.aws/credentials | xargs -I{} cat {}",
        "cat $(find ~/.aws -type f)",
        "head -n 5 `ls -d ~/.ssh/*`",
        "grep -h key $(echo \"$HOME/.config/gh\")",
        "wc -c $(cat ~/.netrc) && cat $(find ~/.kube)",
    ] {
        assert!(credential(line), "{line}: {}", analyse(line).explanation());
    }
    // Names alone, or values and names that reach no secret, are still plain reads.
    for line in [
        "f=README.md; cat \"$f\"",
        "for f in src/*.rs; do grep -c fn \"$f\"; done",
        "ls ~/.ssh | xargs wc -l",
        "find . -name '*.rs' | xargs grep TODO",
        "git ls-files | xargs cat",
        "foo=1; cat \"$foobar\"",
        "cat $(git ls-files src)",
        "grep -n TODO $(find . -name '*.rs')",
        "ls -l $(find ~/.ssh -name '*.pub')",
    ] {
        assert!(!credential(line), "{line}: {}", analyse(line).explanation());
    }
}
